package org.h2.mvstore;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Test helper in H2's package, for what H2 keeps package-private: the pages an H2 file's chunks count
 * as live that no map's current tree holds. H2 frees a chunk only once it counts none of its pages
 * live, so each such page keeps its whole chunk in the file for good.
 */
public final class LivePages {
    private LivePages() {}

    /**
     * Pages counted live in the chunks written before the newest {@code skipNewest} (whose removals H2
     * has not accounted yet), that no open map's current tree holds. Call it with nothing writing.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static int heldByNoTree(MVStore store, int skipNewest) {
        FileStore fileStore = store.getFileStore();
        Map<Integer, Chunk<?>> chunks = (Map<Integer, Chunk<?>>) fileStore.getChunks();
        long newestToCheck = chunks.values().stream().mapToLong(c -> c.version).max().orElse(0) - skipNewest;
        Map<Integer, Set<Long>> held = new HashMap<>();
        int stray = 0;
        for (Chunk<?> chunk : chunks.values()) {
            if (chunk.version > newestToCheck || chunk.pageCountLive == 0) continue;
            long[] toc = ((Chunk) chunk).readToC(fileStore);
            for (int page = 0; (page = chunk.occupancy.nextClearBit(page)) < chunk.pageCount; page++) {
                int mapId = DataUtils.getPageMapId(toc[page]);
                MVMap<?, ?> map = mapId == store.getMetaMap().getId() ? store.getMetaMap() : store.getMap(mapId);
                if (map == null) continue;   // the file's layout map, or a map not open
                long pos = DataUtils.composePagePos(chunk.id, toc[page]);
                if (!held.computeIfAbsent(mapId, id -> pagesOf(map)).contains(pos)) stray++;
            }
        }
        return stray;
    }

    private static Set<Long> pagesOf(MVMap<?, ?> map) {
        Set<Long> out = new HashSet<>();
        walk(map.getRootPage(), out);
        return out;
    }

    private static void walk(Page<?, ?> page, Set<Long> out) {
        out.add(page.getPos());
        if (page.isLeaf()) return;
        for (int i = 0; i < page.getRawChildPageCount(); i++) {
            long pos = page.getChildPagePos(i);
            if (DataUtils.isLeafPosition(pos)) out.add(pos);
            else walk(page.getChildPage(i), out);
        }
    }
}
