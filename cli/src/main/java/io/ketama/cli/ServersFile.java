package io.ketama.cli;

import io.ketama.core.HashStyle;
import io.ketama.core.Node;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a servers file: one server per line, either an nginx line
 * {@code server ADDRESS [weight=N] [other parameters];} or {@code ADDRESS [WEIGHT]}. Blank lines
 * and comments (from a {@code #} at the start of a line or after white space, to the end of the
 * line) are ignored, and so is a UTF-8 byte-order mark at the start of the file; anything else
 * is an error that names the file and line. Weights follow
 * {@link Node#WEIGHT_RULE}, as for the members of a cluster; nginx parameters other than
 * {@code weight=} are accepted and ignored, as they do not change the ring.
 */
final class ServersFile {

    /** U+FEFF, which editors that save UTF-8 "with BOM" put at the start of a file. */
    private static final String BYTE_ORDER_MARK = "\uFEFF";

    private ServersFile() {
    }

    static List<ServerEntry> read(Path file) throws CliException {
        return read(file, null);
    }

    /**
     * {@link #read(Path)} in the syntax of {@code style}'s program where it has its own: twemproxy's
     * {@code host:port:weight [name]} (the weight from the third field; the entry is named by its
     * name when it has one, else by its address as written); a Dubbo provider URL
     * ({@code [dubbo://]host:port[/path][?parameters]}, weight 1: Dubbo's consistent hashing
     * ignores weights).
     */
    static List<ServerEntry> read(Path file, HashStyle style) throws CliException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new CliException("servers file '" + file + "' does not exist");
        } catch (CharacterCodingException e) {
            throw new CliException("servers file '" + file + "' is not UTF-8 text");
        } catch (IOException e) {
            throw new CliException("cannot read servers file '" + file + "': " + e.getMessage());
        }
        List<ServerEntry> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (i == 0 && line.startsWith(BYTE_ORDER_MARK)) {
                // a signature some editors write, not text: left in, it would silently rename (and rehash) the first server
                line = line.substring(1);
            }
            ServerEntry entry = parse(stripComment(line).trim(), i + 1, file, style);
            if (entry != null) {
                out.add(entry);
            }
        }
        if (out.isEmpty()) {
            throw new CliException("servers file '" + file + "' lists no server; expected lines 'ADDRESS [WEIGHT]' or 'server ADDRESS [weight=N];'");
        }
        return out;
    }

    private static String stripComment(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** The entry of one trimmed, comment-free line, or null for a blank one. */
    static ServerEntry parse(String text, int line, Path file) throws CliException {
        return parse(text, line, file, null);
    }

    private static ServerEntry parse(String text, int line, Path file, HashStyle style) throws CliException {
        if (text.isEmpty()) {
            return null;
        }
        if (style == HashStyle.TWEMPROXY_FNV1A_64 || style == HashStyle.TWEMPROXY_MD5) {
            return twemproxyLine(text, line, file);
        }
        if (style == HashStyle.DUBBO) {
            if (text.split("\\s+").length != 1) {
                throw error(file, line, "expected a provider address 'host:port' or URL 'dubbo://host:port/service?parameters', found '" + text + "'");
            }
            return new ServerEntry(text, 1, line, text);
        }
        String[] words = text.split("\\s+");
        if (words[0].equals("server") || words[0].equals("server;")) {
            return nginxLine(text, words, line, file);
        }
        if (words.length > 2 || (words.length == 2 && !words[1].chars().allMatch(c -> c >= '0' && c <= '9'))) {
            throw error(file, line, "expected 'ADDRESS [WEIGHT]' with WEIGHT " + Node.WEIGHT_RULE
                    + ", or 'server ADDRESS [weight=N] [parameters];', found '" + text + "'");
        }
        if (words[0].endsWith(";")) {
            throw error(file, line, "'" + words[0] + "' ends with ';' but the line does not start with 'server'");
        }
        int weight = words.length == 2 ? weight(words[1], line, file) : 1;
        return new ServerEntry(words[0], weight, line, words[0]);
    }

    /** twemproxy's {@code host:port:weight [name]}, read as its {@code conf_add_server} reads it. */
    private static ServerEntry twemproxyLine(String text, int line, Path file) throws CliException {
        String[] words = text.split("\\s+");
        String[] fields = words[0].split(":", -1);
        if (words.length > 2 || fields.length != 3 || fields[0].isEmpty()) {
            throw error(file, line, "expected twemproxy's 'host:port:weight [name]', found '" + text + "'");
        }
        int weight = weight(fields[2], line, file);
        return new ServerEntry(words[0] + (words.length == 2 ? " " + words[1] : ""), weight, line,
                words.length == 2 ? words[1] : words[0]);
    }

    private static ServerEntry nginxLine(String text, String[] words, int line, Path file) throws CliException {
        if (!text.endsWith(";")) {
            throw error(file, line, "an nginx server line must end with ';', found '" + text + "'");
        }
        String body = text.substring(0, text.length() - 1).trim();
        String[] parts = body.split("\\s+");
        if (parts.length < 2 || parts[1].isEmpty()) {
            throw error(file, line, "an nginx server line needs an address: 'server ADDRESS [weight=N] [parameters];'");
        }
        int weight = 1;
        boolean seenWeight = false;
        for (int i = 2; i < parts.length; i++) {
            if (parts[i].startsWith("weight=")) {
                if (seenWeight) {
                    throw error(file, line, "weight= is given twice");
                }
                seenWeight = true;
                weight = weight(parts[i].substring(7), line, file);
            }
        }
        return new ServerEntry(parts[1], weight, line, parts[1]);
    }

    private static int weight(String text, int line, Path file) throws CliException {
        int w = Node.parseWeight(text);
        if (w < 0) {
            throw error(file, line, "weight '" + text + "' is not " + Node.WEIGHT_RULE);
        }
        return w;
    }

    private static CliException error(Path file, int line, String message) {
        return new CliException(file + " line " + line + ": " + message);
    }
}
