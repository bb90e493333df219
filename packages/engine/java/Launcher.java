import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.node.Node;
import org.elasticsearch.plugins.PluginsLoader;

/**
 * Starts one real Elasticsearch node from the jars on the module path.
 *
 * Elastic's distribution bootstrap is not available here (only the server and transport-netty4
 * artifacts are on Maven Central), so this does the part of it we need, in the order recorded in
 * shared/ENGINE.md: logging, environment, modules (transport-netty4), node. Settings come as
 * {@code -Ekey=value} arguments, like the distribution's own command line.
 *
 * Run as a single source file:
 * {@code java -Dlauncher.config=<dir> --module-path <server jars> --add-modules ALL-MODULE-PATH Launcher.java -E...}.
 */
public class Launcher {
    public static void main(String[] args) throws Exception {
        Settings.Builder builder = Settings.builder();
        for (String arg : args) {
            if (!arg.startsWith("-E") || !arg.contains("=")) {
                System.err.println("launcher: expected -Ekey=value, got " + arg);
                System.exit(64);
            }
            String kv = arg.substring(2);
            int eq = kv.indexOf('=');
            builder.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        Settings settings = builder.build();
        Path home = Path.of(settings.get("path.home"));
        // Each instance keeps its own config folder (log settings), so instances can share one home.
        Path configDir = Path.of(System.getProperty("launcher.config", home.resolve("config").toString()));
        Files.createDirectories(configDir);
        Files.createDirectories(home.resolve("plugins"));

        // The node logs to stdout at INFO; the Node wrapper sends stdout to the instance's log file.
        Files.writeString(configDir.resolve("log4j2.properties"), String.join("\n",
            "status = error",
            "appender.console.type = Console",
            "appender.console.name = console",
            "appender.console.layout.type = PatternLayout",
            "appender.console.layout.pattern = [%d{ISO8601}][%-5p][%-25c{1.}]%marker %m%n",
            "rootLogger.level = info",
            "rootLogger.appenderRef.console.ref = console",
            ""));

        Environment env = new Environment(settings, configDir);
        LogConfigurator.configureESLogging();
        LogConfigurator.configure(env, true);
        PluginsLoader loader = PluginsLoader.createPluginsLoader(
            PluginsLoader.loadModulesBundles(env.modulesDir()),
            PluginsLoader.loadPluginsBundles(env.pluginsDir()),
            Map.of());
        Node node = new Node(env, loader);

        CountDownLatch closed = new CountDownLatch(1);
        // SIGTERM / SIGINT: close the node so that shards are flushed and the data folder stays clean.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                closed.countDown();
            }
        }, "launcher-shutdown"));

        node.start();
        System.out.println("launcher: node started");
        closed.await();
    }
}
