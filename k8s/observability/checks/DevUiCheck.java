import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Dev UI card of a running dev-mode ketama app, in a real headless Chromium (Debian's
 * {@code chromium}) driven over its DevTools protocol: opens the card, types each key into "Who owns
 * this key?", presses "Look up", reads the owner, ring and failover order the page shows, and checks
 * them against the app's own {@code GET /route/<key>}. Writes a screenshot of the card after the
 * last lookup. Exit 0 when every key matched, 1 when one did not, 2 when it could not check.
 *
 * <pre>java DevUiCheck.java http://127.0.0.1:8080 card.png key1 key2 ...</pre>
 * Keys are given as request-target text (what follows {@code /cache/}), ASCII, typed into the card
 * as they are.
 *
 * Loopback only: the app's URL must be on 127.0.0.0/8 or [::1]. A JDK alone runs it (single-file
 * source launch): no Playwright, no browser download.
 */
public final class DevUiCheck {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String FIND_CARD = """
            (() => {
              const find = root => {
                const direct = root.querySelector('qwc-ketama-rings');
                if (direct) return direct;
                for (const n of root.querySelectorAll('*')) {
                  if (n.shadowRoot) { const f = find(n.shadowRoot); if (f) return f; }
                }
                return null;
              };
              window.__card = find(document);
              return window.__card;
            })()""";

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: java DevUiCheck.java APP_URL SCREENSHOT.png KEY...");
            System.exit(2);
        }
        URI app = URI.create(args[0].endsWith("/") ? args[0].substring(0, args[0].length() - 1) : args[0]);
        String host = app.getHost();
        if (!(host.startsWith("127.") || host.equals("localhost") || host.equals("[::1]"))) {
            System.err.println("DevUiCheck: " + app + " is not on loopback; it checks only an app on 127.0.0.0/8 or [::1]");
            System.exit(2);
        }
        Path shot = Path.of(args[1]);
        List<String> keys = List.of(args).subList(2, args.length);
        int failed;
        try (Browser browser = Browser.start()) {
            failed = check(browser, app, shot, keys);
        }
        System.out.println(failed == 0 ? "DevUiCheck: the card showed /route's answer for all " + keys.size() + " keys"
                : "DevUiCheck: " + failed + " of " + keys.size() + " keys shown differently from /route");
        System.exit(failed == 0 ? 0 : 1);
    }

    private static int check(Browser b, URI app, Path shot, List<String> keys) throws Exception {
        b.call("Emulation.setDeviceMetricsOverride", Map.of("width", 1400, "height", 1500, "deviceScaleFactor", 1, "mobile", false));
        b.call("Page.enable", Map.of());
        b.call("Page.navigate", Map.of("url", app + "/q/dev-ui/quarkus-ketama/rings"));
        // the card renders once its JSON-RPC answers arrive: wait for its tables and its picture
        b.until("the card with its members table and ring picture", FIND_CARD + " && window.__card.renderRoot.querySelector('table') !== null"
                + " && window.__card.renderRoot.querySelector('#ring-picture') !== null"
                + " && window.__card.renderRoot.querySelector('#ring-picture').complete");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        int failed = 0;
        for (String key : keys) {
            String js = "(() => { const r = window.__card.renderRoot;"
                    + " r.querySelector('#key').value = " + jsString(key) + "; r.querySelector('#features').value = '';"
                    + " [...r.querySelectorAll('button')].find(x => x.textContent.trim() === 'Look up').click(); return true; })()";
            b.evaluate(js);
            String shown = b.until("the card's answer for " + key, "(() => { const o = window.__card.renderRoot.querySelector('#owner-result');"
                    + " return o && o.dataset.key === " + jsString(key) + " ? JSON.stringify({owner: o.dataset.owner, ring: o.dataset.ring,"
                    + " candidates: o.dataset.candidates, text: o.textContent.replace(/\\s+/g, ' ').trim()}) : null; })()");
            Map<String, Object> page = Json.object(shown);
            // the app's key is the raw request target after /route/ (query included), so the key goes as it is:
            // percent-encoding it would ask for another key ("a%2Fb" is not "a/b")
            String body = http.send(HttpRequest.newBuilder(URI.create(app + "/route/" + key))
                    .timeout(Duration.ofSeconds(10)).header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Map<String, Object> route = Json.object(body);
            String owner = (String) ((Map<?, ?>) route.get("owner")).get("address");
            List<String> candidates = new ArrayList<>();
            for (Object c : (List<?>) route.get("candidates")) {
                candidates.add((String) ((Map<?, ?>) c).get("address"));
            }
            boolean same = owner.equals(page.get("owner")) && route.get("ring").equals(page.get("ring"))
                    && String.join(",", candidates).equals(page.get("candidates"))
                    && ((String) page.get("text")).contains(owner);
            System.out.printf("%s key %s: card shows owner %s on ring %s, failover %s (\"%s\"); /route says owner %s on ring %s, candidates %s%n",
                    same ? "OK  " : "DIFF", key, page.get("owner"), page.get("ring"), page.get("candidates"), page.get("text"), owner,
                    route.get("ring"), String.join(",", candidates));
            if (!same) {
                failed++;
            }
        }
        // Dev UI's own notices (here: it cannot reach an extension registry) fade after a few seconds; the picture is of the card
        try {
            b.until("Dev UI's notices to fade", "(() => { const any = root => root.querySelector('vaadin-notification-card') !== null"
                    + " || [...root.querySelectorAll('*')].some(n => n.shadowRoot && any(n.shadowRoot)); return !any(document); })()");
        } catch (IllegalStateException e) {
            System.out.println("DevUiCheck: a Dev UI notice is still shown: " + e.getMessage());
        }
        Map<String, Object> png = b.call("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
        Files.write(shot, Base64.getDecoder().decode((String) png.get("data")));
        System.out.println("DevUiCheck: screenshot " + shot + " (" + Files.size(shot) + " bytes)");
        return failed;
    }

    private static String jsString(String s) {
        StringBuilder out = new StringBuilder("'");
        for (char c : s.toCharArray()) {
            out.append(c == '\'' || c == '\\' || c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return out.append('\'').toString();
    }

    /** A headless Chromium with one page, driven over the DevTools protocol's WebSocket. */
    static final class Browser implements AutoCloseable, WebSocket.Listener {
        private final Process process;
        private final Path profile;
        private final WebSocket socket;
        private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
        private final AtomicInteger ids = new AtomicInteger();
        private final StringBuilder partial = new StringBuilder();

        private Browser(Process process, Path profile, URI page) throws Exception {
            this.process = process;
            this.profile = profile;
            this.socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(page, this).get(30, TimeUnit.SECONDS);
        }

        static Browser start() throws Exception {
            Path profile = Files.createTempDirectory("ketama-devui-check");
            List<String> command = List.of("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                    "--user-data-dir=" + profile, "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "about:blank");
            Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
            Pattern listening = Pattern.compile("DevTools listening on ws://127\\.0\\.0\\.1:(\\d+)/");
            String line;
            int port = -1;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (port < 0 && System.nanoTime() < deadline && (line = err.readLine()) != null) {
                Matcher m = listening.matcher(line);
                if (m.find()) {
                    port = Integer.parseInt(m.group(1));
                }
            }
            if (port < 0) {
                p.destroyForcibly();
                throw new IllegalStateException("chromium did not say where its DevTools listen");
            }
            Thread drain = new Thread(() -> err.lines().forEach(l -> { }), "chromium-stderr");
            drain.setDaemon(true);
            drain.start();
            String list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            String page = null;
            for (Object t : Json.array(list)) {
                Map<?, ?> target = (Map<?, ?>) t;
                if ("page".equals(target.get("type"))) {
                    page = (String) target.get("webSocketDebuggerUrl");
                }
            }
            if (page == null) {
                p.destroyForcibly();
                throw new IllegalStateException("chromium has no page target: " + list);
            }
            return new Browser(p, profile, URI.create(page));
        }

        Map<String, Object> call(String method, Map<String, Object> params) throws Exception {
            int id = ids.incrementAndGet();
            CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
            pending.put(id, answer);
            Map<String, Object> message = new LinkedHashMap<>();
            message.put("id", id);
            message.put("method", method);
            message.put("params", params);
            socket.sendText(Json.write(message), true).get(30, TimeUnit.SECONDS);
            Map<String, Object> reply = answer.get(60, TimeUnit.SECONDS);
            if (reply.containsKey("error")) {
                throw new IllegalStateException(method + " failed: " + reply.get("error"));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) reply.get("result");
            return result;
        }

        /** The value of {@code expression}, or null; a thrown exception fails the check. */
        Object evaluate(String expression) throws Exception {
            Map<String, Object> r = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
            if (r.containsKey("exceptionDetails")) {
                throw new IllegalStateException("the page threw: " + r.get("exceptionDetails"));
            }
            return ((Map<?, ?>) r.get("result")).get("value");
        }

        /** Evaluates {@code expression} every 250 ms until it is truthy, for up to 90 s; answers it as text. */
        String until(String what, String expression) throws Exception {
            long deadline = System.nanoTime() + WAIT.toNanos();
            Object last = null;
            while (System.nanoTime() < deadline) {
                try {
                    last = evaluate(expression);
                } catch (IllegalStateException e) {
                    last = e.getMessage(); // not there yet (a reload, an element still missing)
                }
                if (last != null && !Boolean.FALSE.equals(last) && !(last instanceof String s && s.startsWith("the page threw"))) {
                    return String.valueOf(last);
                }
                Thread.sleep(250);
            }
            throw new IllegalStateException("not within " + WAIT.toSeconds() + " s: " + what + " (last: " + last + ")");
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                Map<String, Object> message = Json.object(partial.toString());
                partial.setLength(0);
                Object id = message.get("id");
                if (id instanceof Number n) {
                    CompletableFuture<Map<String, Object>> f = pending.remove(n.intValue());
                    if (f != null) {
                        f.complete(message);
                    }
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public void close() throws IOException {
            socket.abort();
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try (var walk = Files.walk(profile)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Just enough JSON for the DevTools protocol and /route: objects, arrays, strings, numbers, booleans, null. */
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        @SuppressWarnings("unchecked")
        static Map<String, Object> object(String text) {
            return (Map<String, Object>) new Json(text).value();
        }

        static List<?> array(String text) {
            return (List<?>) new Json(text).value();
        }

        private Object value() {
            skip();
            char c = s.charAt(i);
            switch (c) {
                case '{' -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    i++;
                    skip();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        skip();
                        String k = string();
                        skip();
                        i++; // ':'
                        m.put(k, value());
                        skip();
                        if (s.charAt(i++) == '}') {
                            return m;
                        }
                    }
                }
                case '[' -> {
                    List<Object> l = new ArrayList<>();
                    i++;
                    skip();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        skip();
                        if (s.charAt(i++) == ']') {
                            return l;
                        }
                    }
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    int start = i;
                    while (i < s.length() && ",}] \n\r\t".indexOf(s.charAt(i)) < 0) {
                        i++;
                    }
                    String word = s.substring(start, i);
                    return switch (word) {
                        case "true" -> Boolean.TRUE;
                        case "false" -> Boolean.FALSE;
                        case "null" -> null;
                        default -> Double.valueOf(word);
                    };
                }
            }
        }

        private String string() {
            StringBuilder out = new StringBuilder();
            i++; // '"'
            while (s.charAt(i) != '"') {
                char c = s.charAt(i++);
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> out.append('\n');
                        case 't' -> out.append('\t');
                        case 'r' -> out.append('\r');
                        case 'b' -> out.append('\b');
                        case 'f' -> out.append('\f');
                        case 'u' -> {
                            out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                        }
                        default -> out.append(e);
                    }
                } else {
                    out.append(c);
                }
            }
            i++;
            return out.toString();
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        static String write(Object v) {
            if (v == null) {
                return "null";
            }
            if (v instanceof String str) {
                StringBuilder out = new StringBuilder("\"");
                for (char c : str.toCharArray()) {
                    if (c == '"' || c == '\\') {
                        out.append('\\').append(c);
                    } else if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
                return out.append('"').toString();
            }
            if (v instanceof Map<?, ?> m) {
                List<String> parts = new ArrayList<>();
                m.forEach((k, x) -> parts.add(write(String.valueOf(k)) + ":" + write(x)));
                return "{" + String.join(",", parts) + "}";
            }
            if (v instanceof List<?> l) {
                List<String> parts = new ArrayList<>();
                l.forEach(x -> parts.add(write(x)));
                return "[" + String.join(",", parts) + "]";
            }
            return String.valueOf(v);
        }
    }
}
