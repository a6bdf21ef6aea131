package steward.cli;

import java.util.concurrent.Callable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.modelcontextprotocol.server.McpSyncServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import steward.server.McpServerFactory;
import steward.server.StdioTransport;
import steward.server.Tools;

@Command(name = "serve", description = "Run the MCP server on stdio (the default command).")
public final class ServeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    @Mixin
    CommonOptions common = new CommonOptions();

    @Override
    public Integer call() throws Exception {
        var transport = new StdioTransport(McpServerFactory.mapper(), System.in, Printer.out());
        McpSyncServer server = McpServerFactory.build(transport, Tools.registry(), common.context());
        LOG.info("steward {} serving on stdio (hermes home {})", McpServerFactory.VERSION, common.paths().hermesHome());
        transport.awaitTermination();
        server.close();
        return 0;
    }
}
