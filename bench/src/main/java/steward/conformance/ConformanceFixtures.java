package steward.conformance;

import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import steward.Work;
import steward.server.McpServerFactory;
import steward.server.http.ResumableStreams;
import steward.server.tools.ToolContext;
import steward.state.AtomicFiles;

/**
 * TEST ONLY ({@code steward serve --conformance-fixtures}, with the bench module on the class path; never in the
 * shipped jar): the fixture tools, resources and prompts
 * the official MCP conformance suite calls by fixed names, plus {@code steward_test_slow}, a slow
 * tool for progress and cancellation tests. Never part of {@code Tools.registry()};
 * they still run through Steward's own transports, sessions, notifications and error paths
 * ({@link McpServerFactory#toolSpec}).
 */
public final class ConformanceFixtures {
    /** A 1×1 red PNG. */
    static final String PNG =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
    /** A tiny valid WAV (44-byte header, 2 silent samples). */
    static final String WAV = "UklGRigAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQQAAAAAAAAA";

    private ConformanceFixtures() {}

    public static McpServerFactory.Extras extras(ToolContext ctx) {
        return new McpServerFactory.Extras(tools(ctx), resources(), templates(), prompts(), completions());
    }

    private static Map<String, Object> schema(Map<String, Object> props, List<String> required) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", props);
        if (!required.isEmpty()) s.put("required", required);
        return s;
    }

    private static McpSchema.Tool tool(String name, String description, Map<String, Object> inputSchema) {
        return McpSchema.Tool.builder(name, inputSchema)
                .description(description)
                .build();
    }

    private static McpSchema.CallToolResult result(McpSchema.Content... content) {
        return McpSchema.CallToolResult.builder()
                .content(List.of(content))
                .isError(false)
                .build();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static List<McpServerFeatures.SyncToolSpecification> tools(ToolContext ctx) {
        Map<String, Object> none = schema(Map.of(), List.of());
        return List.of(
                McpServerFactory.toolSpec(
                        tool("test_simple_text", "Returns a fixed text (conformance fixture).", none),
                        ctx,
                        (a, c, ex) -> result(text("This is a simple text response for testing."))),
                McpServerFactory.toolSpec(
                        tool("test_image_content", "Returns a 1x1 PNG (conformance fixture).", none),
                        ctx,
                        (a, c, ex) -> result(
                                McpSchema.ImageContent.builder(PNG, "image/png").build())),
                McpServerFactory.toolSpec(
                        tool("test_audio_content", "Returns a tiny WAV (conformance fixture).", none),
                        ctx,
                        (a, c, ex) -> result(
                                McpSchema.AudioContent.builder(WAV, "audio/wav").build())),
                McpServerFactory.toolSpec(
                        tool("test_embedded_resource", "Returns an embedded resource (conformance fixture).", none),
                        ctx,
                        (a, c, ex) -> result(McpSchema.EmbeddedResource.builder(McpSchema.TextResourceContents.builder(
                                                "test://embedded-resource", "This is an embedded resource content.")
                                        .mimeType("text/plain")
                                        .build())
                                .build())),
                McpServerFactory.toolSpec(
                        tool(
                                "test_multiple_content_types",
                                "Returns text, image and resource (conformance fixture).",
                                none),
                        ctx,
                        (a, c, ex) -> result(
                                text("Multiple content types test:"),
                                McpSchema.ImageContent.builder(PNG, "image/png").build(),
                                McpSchema.EmbeddedResource.builder(McpSchema.TextResourceContents.builder(
                                                        "test://mixed-content-resource",
                                                        "{\"test\":\"data\",\"value\":123}")
                                                .mimeType("application/json")
                                                .build())
                                        .build())),
                McpServerFactory.toolSpec(
                        tool(
                                "test_tool_with_logging",
                                "Sends three info log notifications (conformance fixture).",
                                none),
                        ctx,
                        (a, c, ex) -> {
                            log(ex, "Tool execution started");
                            sleep(50);
                            log(ex, "Tool processing data");
                            sleep(50);
                            log(ex, "Tool execution completed");
                            return result(text("Tool with logging executed successfully"));
                        }),
                McpServerFactory.toolSpec(
                        tool("test_error_handling", "Always fails (conformance fixture).", none),
                        ctx,
                        (a, c, ex) -> McpSchema.CallToolResult.builder()
                                .addTextContent("This tool intentionally returns an error for testing")
                                .isError(true)
                                .build()),
                McpServerFactory.toolSpec(
                        tool(
                                "test_tool_with_progress",
                                "Reports progress 0, 50, 100 of 100 (conformance fixture).",
                                none),
                        ctx,
                        (a, c, ex) -> {
                            Work w = c.work();
                            w.progress(0, 100, "started");
                            sleep(50);
                            w.progress(50, 100, "half way");
                            sleep(50);
                            w.progress(100, 100, "done");
                            return result(text("Tool with progress executed successfully"));
                        }),
                McpServerFactory.toolSpec(
                        tool(
                                "test_sampling",
                                "Asks the client's LLM (conformance fixture).",
                                schema(
                                        Map.of(
                                                "prompt",
                                                Map.of(
                                                        "type",
                                                        "string",
                                                        "description",
                                                        "The prompt to send to the LLM")),
                                        List.of("prompt"))),
                        ctx,
                        ConformanceFixtures::sampling),
                McpServerFactory.toolSpec(
                        tool(
                                "test_elicitation",
                                "Asks the user for input (conformance fixture).",
                                schema(
                                        Map.of(
                                                "message",
                                                Map.of(
                                                        "type",
                                                        "string",
                                                        "description",
                                                        "The message to show the user")),
                                        List.of("message"))),
                        ctx,
                        (a, c, ex) -> elicit(
                                ex,
                                String.valueOf(a.get("message")),
                                schema(
                                        Map.of(
                                                "username", Map.of("type", "string", "description", "User's response"),
                                                "email",
                                                        Map.of(
                                                                "type",
                                                                "string",
                                                                "description",
                                                                "User's email address")),
                                        List.of("username", "email")),
                                "User response: ")),
                McpServerFactory.toolSpec(
                        tool(
                                "test_elicitation_sep1034_defaults",
                                "Elicitation with defaults (conformance fixture).",
                                none),
                        ctx,
                        (a, c, ex) -> elicit(
                                ex,
                                "Please review and update the form fields with defaults",
                                schema(sep1034(), List.of()),
                                "Elicitation completed: ")),
                McpServerFactory.toolSpec(
                        tool(
                                "test_elicitation_sep1330_enums",
                                "Elicitation with enum schemas (conformance fixture).",
                                none),
                        ctx,
                        (a, c, ex) -> elicit(
                                ex,
                                "Please select options from the enum fields",
                                schema(sep1330(), List.of()),
                                "Elicitation completed: ")),
                McpServerFactory.toolSpec(
                        tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", jsonSchema2020()),
                        ctx,
                        (a, c, ex) -> result(text("JSON Schema 2020-12 tool called with " + a))),
                McpServerFactory.toolSpec(
                        tool(
                                "test_reconnection",
                                "Closes its POST stream mid-call, then answers on the resumed stream "
                                        + "(conformance fixture, SEP-1699).",
                                none),
                        ctx,
                        (a, c, ex) -> {
                            sleep(100);
                            ResumableStreams.INSTANCE.detachToolCall(ex.sessionId(), "test_reconnection");
                            sleep(400);
                            return result(text("Reconnection test completed successfully"));
                        }),
                McpServerFactory.toolSpec(
                        tool(
                                "steward_test_slow",
                                "TEST ONLY: writes `items` files one by one into <state dir>/test-slow, "
                                        + "pausing `delay_ms` between them; reports progress and stops at a safe point when cancelled.",
                                schema(
                                        Map.of(
                                                "items",
                                                Map.of("type", "integer", "minimum", 1, "maximum", 10000),
                                                "delay_ms",
                                                Map.of("type", "integer", "minimum", 0, "maximum", 10000)),
                                        List.of("items"))),
                        ctx,
                        ConformanceFixtures::slow));
    }

    private static void log(McpSyncServerExchange ex, String msg) {
        ex.loggingNotification(McpSchema.LoggingMessageNotification.builder(McpSchema.LoggingLevel.INFO, msg)
                .logger("conformance")
                .build());
    }

    private static McpSchema.CallToolResult sampling(Map<String, Object> a, ToolContext c, McpSyncServerExchange ex) {
        if (ex.getClientCapabilities() == null || ex.getClientCapabilities().sampling() == null) {
            return McpSchema.CallToolResult.builder()
                    .addTextContent("test_sampling: the client does not support sampling")
                    .isError(true)
                    .build();
        }
        var req = McpSchema.CreateMessageRequest.builder(
                        List.of(new McpSchema.SamplingMessage(
                                McpSchema.Role.USER, text(String.valueOf(a.get("prompt"))))),
                        100)
                .build();
        McpSchema.CreateMessageResult r = ex.createMessage(req);
        String text = r.content() instanceof McpSchema.TextContent t ? t.text() : String.valueOf(r.content());
        return result(text("LLM response: " + text));
    }

    private static McpSchema.CallToolResult elicit(
            McpSyncServerExchange ex, String message, Map<String, Object> schema, String prefix) {
        if (ex.getClientCapabilities() == null || ex.getClientCapabilities().elicitation() == null) {
            return McpSchema.CallToolResult.builder()
                    .addTextContent("elicitation: the client does not support elicitation")
                    .isError(true)
                    .build();
        }
        McpSchema.ElicitResult r = ex.createElicitation(
                McpSchema.ElicitFormRequest.builder(message, schema).build());
        return result(
                text(prefix + "action=" + r.action().name().toLowerCase(Locale.ROOT) + ", content=" + r.content()));
    }

    private static Map<String, Object> sep1034() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("name", Map.of("type", "string", "description", "User name", "default", "John Doe"));
        p.put("age", Map.of("type", "integer", "description", "User age", "default", 30));
        p.put("score", Map.of("type", "number", "description", "User score", "default", 95.5));
        p.put(
                "status",
                Map.of(
                        "type",
                        "string",
                        "description",
                        "User status",
                        "enum",
                        List.of("active", "inactive", "pending"),
                        "default",
                        "active"));
        p.put("verified", Map.of("type", "boolean", "description", "Verification status", "default", true));
        return p;
    }

    private static Map<String, Object> sep1330() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(
                "untitledSingle",
                Map.of(
                        "type",
                        "string",
                        "description",
                        "Untitled single-select",
                        "enum",
                        List.of("option1", "option2", "option3")));
        p.put(
                "titledSingle",
                Map.of(
                        "type",
                        "string",
                        "description",
                        "Titled single-select",
                        "oneOf",
                        List.of(
                                Map.of("const", "value1", "title", "First Option"),
                                Map.of("const", "value2", "title", "Second Option"),
                                Map.of("const", "value3", "title", "Third Option"))));
        p.put(
                "legacyEnum",
                Map.of(
                        "type",
                        "string",
                        "description",
                        "Legacy titled enum",
                        "enum",
                        List.of("opt1", "opt2", "opt3"),
                        "enumNames",
                        List.of("Option One", "Option Two", "Option Three")));
        p.put(
                "untitledMulti",
                Map.of(
                        "type",
                        "array",
                        "description",
                        "Untitled multi-select",
                        "items",
                        Map.of("type", "string", "enum", List.of("option1", "option2", "option3"))));
        p.put(
                "titledMulti",
                Map.of(
                        "type",
                        "array",
                        "description",
                        "Titled multi-select",
                        "items",
                        Map.of(
                                "anyOf",
                                List.of(
                                        Map.of("const", "value1", "title", "First Choice"),
                                        Map.of("const", "value2", "title", "Second Choice"),
                                        Map.of("const", "value3", "title", "Third Choice")))));
        return p;
    }

    private static Map<String, Object> jsonSchema2020() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        s.put("type", "object");
        s.put(
                "$defs",
                Map.of(
                        "address",
                        Map.of(
                                "type",
                                "object",
                                "properties",
                                Map.of("street", Map.of("type", "string"), "city", Map.of("type", "string")))));
        s.put("properties", Map.of("name", Map.of("type", "string"), "address", Map.of("$ref", "#/$defs/address")));
        s.put("additionalProperties", false);
        return s;
    }

    /** Writes item files one at a time (each atomically), checking for cancellation only between files. */
    private static McpSchema.CallToolResult slow(Map<String, Object> a, ToolContext c, McpSyncServerExchange ex) {
        int items = ((Number) a.getOrDefault("items", 10)).intValue();
        long delay = ((Number) a.getOrDefault("delay_ms", 50)).longValue();
        Path dir = c.paths().stateDir().resolve("test-slow");
        try {
            AtomicFiles.ensurePrivateDir(dir);
            for (int i = 1; i <= items; i++) {
                c.work().checkpoint("steward_test_slow: after " + (i - 1) + " of " + items + " items");
                sleep(delay);
                AtomicFiles.writeString(
                        dir.resolve(String.format("item-%05d.txt", i)), "item " + i + " of " + items + "\n");
                c.work().progress(i, items, "item " + i + " of " + items);
            }
        } catch (Work.Cancelled e) {
            return McpSchema.CallToolResult.builder()
                    .addTextContent(e.getMessage())
                    .isError(true)
                    .build();
        } catch (IOException | RuntimeException e) {
            return McpSchema.CallToolResult.builder()
                    .addTextContent("steward_test_slow: " + e)
                    .isError(true)
                    .build();
        }
        return result(text("wrote " + items + " items"));
    }

    static List<McpServerFeatures.SyncResourceSpecification> resources() {
        return List.of(
                new McpServerFeatures.SyncResourceSpecification(
                        McpSchema.Resource.builder("test://static-text", "static-text")
                                .description("A static text resource (conformance fixture)")
                                .mimeType("text/plain")
                                .build(),
                        (ex, req) -> McpSchema.ReadResourceResult.builder(
                                        List.of(McpSchema.TextResourceContents.builder(
                                                        "test://static-text",
                                                        "This is the content of the static text resource.")
                                                .mimeType("text/plain")
                                                .build()))
                                .build()),
                new McpServerFeatures.SyncResourceSpecification(
                        McpSchema.Resource.builder("test://static-binary", "static-binary")
                                .description("A static PNG (conformance fixture)")
                                .mimeType("image/png")
                                .build(),
                        (ex, req) -> McpSchema.ReadResourceResult.builder(
                                        List.of(McpSchema.BlobResourceContents.builder("test://static-binary", PNG)
                                                .mimeType("image/png")
                                                .build()))
                                .build()),
                new McpServerFeatures.SyncResourceSpecification(
                        McpSchema.Resource.builder("test://watched-resource", "watched-resource")
                                .description("A resource to subscribe to (conformance fixture)")
                                .mimeType("text/plain")
                                .build(),
                        (ex, req) -> McpSchema.ReadResourceResult.builder(
                                        List.of(McpSchema.TextResourceContents.builder(
                                                        "test://watched-resource", "Watched resource content")
                                                .mimeType("text/plain")
                                                .build()))
                                .build()));
    }

    static List<McpServerFeatures.SyncResourceTemplateSpecification> templates() {
        return List.of(new McpServerFeatures.SyncResourceTemplateSpecification(
                McpSchema.ResourceTemplate.builder("test://template/{id}/data", "template-data")
                        .description("A templated resource (conformance fixture)")
                        .mimeType("application/json")
                        .build(),
                (ex, req) -> {
                    String uri = req.uri();
                    String id = uri.substring("test://template/".length(), uri.length() - "/data".length());
                    return McpSchema.ReadResourceResult.builder(List.of(McpSchema.TextResourceContents.builder(
                                            uri,
                                            "{\"id\":\"" + id + "\",\"templateTest\":true,\"data\":\"Data for ID: " + id
                                                    + "\"}")
                                    .mimeType("application/json")
                                    .build()))
                            .build();
                }));
    }

    static List<McpServerFeatures.SyncPromptSpecification> prompts() {
        return List.of(
                new McpServerFeatures.SyncPromptSpecification(
                        prompt("test_simple_prompt", "A simple prompt (conformance fixture)", List.of()),
                        (ex, req) -> McpSchema.GetPromptResult.builder(
                                        List.of(user(text("This is a simple prompt for testing."))))
                                .build()),
                new McpServerFeatures.SyncPromptSpecification(
                        prompt(
                                "test_prompt_with_arguments",
                                "A prompt with arguments (conformance fixture)",
                                List.of(
                                        argument("arg1", "First test argument"),
                                        argument("arg2", "Second test argument"))),
                        (ex, req) -> McpSchema.GetPromptResult.builder(List.of(user(text("Prompt with arguments: arg1='"
                                        + req.arguments().get("arg1") + "', arg2='"
                                        + req.arguments().get("arg2") + "'"))))
                                .build()),
                new McpServerFeatures.SyncPromptSpecification(
                        prompt(
                                "test_prompt_with_embedded_resource",
                                "A prompt embedding a resource (conformance fixture)",
                                List.of(argument("resourceUri", "URI of the resource to embed"))),
                        (ex, req) -> McpSchema.GetPromptResult.builder(List.of(
                                        user(McpSchema.EmbeddedResource.builder(McpSchema.TextResourceContents.builder(
                                                                String.valueOf(req.arguments()
                                                                        .get("resourceUri")),
                                                                "Embedded resource content for testing.")
                                                        .mimeType("text/plain")
                                                        .build())
                                                .build()),
                                        user(text("Please process the embedded resource above."))))
                                .build()),
                new McpServerFeatures.SyncPromptSpecification(
                        prompt("test_prompt_with_image", "A prompt with an image (conformance fixture)", List.of()),
                        (ex, req) -> McpSchema.GetPromptResult.builder(List.of(
                                        user(McpSchema.ImageContent.builder(PNG, "image/png")
                                                .build()),
                                        user(text("Please analyze the image above."))))
                                .build()));
    }

    private static McpSchema.Prompt prompt(String name, String description, List<McpSchema.PromptArgument> arguments) {
        return McpSchema.Prompt.builder(name)
                .description(description)
                .arguments(arguments)
                .build();
    }

    private static McpSchema.PromptArgument argument(String name, String description) {
        return McpSchema.PromptArgument.builder(name)
                .description(description)
                .required(true)
                .build();
    }

    private static McpSchema.TextContent text(String text) {
        return McpSchema.TextContent.builder(text).build();
    }

    private static McpSchema.PromptMessage user(McpSchema.Content c) {
        return new McpSchema.PromptMessage(McpSchema.Role.USER, c);
    }

    static List<McpServerFeatures.SyncCompletionSpecification> completions() {
        List<String> words = List.of("paris", "park", "party", "test", "testValue1", "testValue2");
        return List.of(new McpServerFeatures.SyncCompletionSpecification(
                new McpSchema.PromptReference("test_prompt_with_arguments"), (ex, req) -> {
                    String v =
                            req.argument().value() == null ? "" : req.argument().value();
                    List<String> hits =
                            words.stream().filter(w -> w.startsWith(v)).toList();
                    return new McpSchema.CompleteResult(
                            new McpSchema.CompleteResult.CompleteCompletion(hits, hits.size(), false));
                }));
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
