package dev.ledgerlink.bench.oauth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The forms of an HTML page, read the way a browser submits them: action, method, the named inputs
 * with their values (hidden CSRF tokens included) and the named submit buttons. Enough for the
 * authorization page's login and consent forms; not a general HTML parser.
 */
public final class HtmlForms {
    record Button(String name, String value, String text) {}

    public record Form(String action, String method, Map<String, String> inputs, List<String> inputTypes, List<Button> buttons) {
        public boolean hasPassword() { return inputTypes.contains("password"); }
    }

    private static final Pattern FORM = Pattern.compile("<form\\b([^>]*)>(.*?)</form>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern INPUT = Pattern.compile("<input\\b([^>]*)>", Pattern.CASE_INSENSITIVE);
    private static final Pattern BUTTON = Pattern.compile("<button\\b([^>]*)>(.*?)</button>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern ATTR = Pattern.compile("([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s\"'>]+)))?");

    private HtmlForms() {}

    public static List<Form> parse(String html) {
        List<Form> forms = new ArrayList<>();
        Matcher f = FORM.matcher(html);
        while (f.find()) {
            Map<String, String> formAttrs = attrs(f.group(1));
            Map<String, String> inputs = new LinkedHashMap<>();
            List<String> types = new ArrayList<>();
            Matcher i = INPUT.matcher(f.group(2));
            while (i.find()) {
                Map<String, String> a = attrs(i.group(1));
                String type = a.getOrDefault("type", "text").toLowerCase();
                types.add(type);
                if (type.equals("submit")) continue;
                if ((type.equals("checkbox") || type.equals("radio")) && !a.containsKey("checked")) continue;
                if (a.containsKey("name")) inputs.put(a.get("name"), a.getOrDefault("value", type.equals("checkbox") ? "on" : ""));
            }
            List<Button> buttons = new ArrayList<>();
            Matcher b = BUTTON.matcher(f.group(2));
            while (b.find()) {
                Map<String, String> a = attrs(b.group(1));
                buttons.add(new Button(a.get("name"), a.getOrDefault("value", ""), b.group(2).replaceAll("<[^>]*>", "").trim()));
            }
            Matcher si = INPUT.matcher(f.group(2));
            while (si.find()) {
                Map<String, String> a = attrs(si.group(1));
                if ("submit".equalsIgnoreCase(a.get("type"))) buttons.add(new Button(a.get("name"), a.getOrDefault("value", ""), a.getOrDefault("value", "")));
            }
            forms.add(new Form(formAttrs.getOrDefault("action", ""), formAttrs.getOrDefault("method", "get").toLowerCase(), inputs, types, buttons));
        }
        return forms;
    }

    private static Map<String, String> attrs(String s) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = ATTR.matcher(s);
        while (m.find()) {
            String v = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4) != null ? m.group(4) : "";
            out.put(m.group(1).toLowerCase(), unescape(v));
        }
        return out;
    }

    static String unescape(String s) {
        if (s.indexOf('&') < 0) return s;
        return s.replace("&quot;", "\"").replace("&#34;", "\"").replace("&#39;", "'").replace("&#x27;", "'")
                .replace("&lt;", "<").replace("&gt;", ">").replace("&#x2F;", "/").replace("&#47;", "/").replace("&amp;", "&");
    }
}
