import Foundation
import Testing

@testable import BlocksKit

/// `blocks mcp` in-process: the JSON-RPC layer (framing, malformed input, unknown methods,
/// wrong params, a huge line, the end of input), both protocol eras' shapes, cancellation
/// of a running call, and the tools against real projects in temporary folders, including
/// that a file the user changed is never overwritten.
@Suite struct MCPServerTests {
    static let meta: JSONValue = .object([
        "io.modelcontextprotocol/protocolVersion": .string("2026-07-28"),
        "io.modelcontextprotocol/clientCapabilities": .object([:]),
    ])

    /// One chunk of input, or a pause until something has happened in the server.
    enum Input {
        case bytes(Data)
        case waitFor(DispatchSemaphore)

        static func line(_ text: String) -> Input { .bytes(Data((text + "\n").utf8)) }

        static func message(_ members: [String: JSONValue]) -> Input {
            var members = members
            members["jsonrpc"] = .string("2.0")
            return line(String(decoding: StableJSONWriter.line(.object(members)), as: UTF8.self))
        }

        /// A modern request: `_meta` with the version and the capabilities.
        static func modern(_ id: Int, _ method: String, _ params: [String: JSONValue] = [:]) -> Input {
            var params = params
            params["_meta"] = MCPServerTests.meta
            return message(["id": .int(id), "method": .string(method), "params": .object(params)])
        }

        static func call(_ id: Int, _ tool: String, _ arguments: [String: JSONValue]) -> Input {
            modern(id, "tools/call", ["name": .string(tool), "arguments": .object(arguments)])
        }
    }

    /// Serves `inputs` to the end and returns every message written, each checked to be
    /// exactly one line of JSON.
    static func exchange(_ inputs: [Input], context: CommandContext? = nil) throws -> [JSONValue] {
        let output = BufferSink()
        let base = context ?? makeContext(directory: repositoryRoot, environment: ["SOURCE_DATE_EPOCH": "1767225600"]).0
        let server = MCPServer(context: base) { output.write(String(decoding: $0, as: UTF8.self)) }
        var queue = inputs[...]
        var pending = Data()
        server.serve { buffer in
            while pending.isEmpty {
                guard let next = queue.popFirst() else { return 0 }
                switch next {
                case .bytes(let data): pending = data
                case .waitFor(let event): _ = event.wait(timeout: .now() + 30)
                }
            }
            let count = min(buffer.count, pending.count)
            buffer.copyBytes(from: pending.prefix(count))
            pending = pending.dropFirst(count)
            return count
        }
        let text = output.text
        #expect(text.isEmpty || text.hasSuffix("\n"), "every message ends its line")
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try JSONReader.parse(Data(line.utf8))
        }
    }

    static func response(_ id: Int, in messages: [JSONValue]) -> [String: JSONValue]? {
        messages.compactMap(\.object).first { $0["id"] == .int(id) }
    }

    static func errorCode(_ id: Int?, in messages: [JSONValue]) -> Int? {
        let message = id.map { response($0, in: messages) } ?? messages.compactMap(\.object).first { $0["id"] == nil }
        guard case .int(let code)? = message?["error"]?["code"] else { return nil }
        return code
    }

    /// The `structuredContent` and `isError` of a tool call's answer.
    static func toolResult(_ id: Int, in messages: [JSONValue]) -> (structured: [String: JSONValue], isError: Bool)? {
        guard let result = response(id, in: messages)?["result"]?.object, let structured = result["structuredContent"]?.object else { return nil }
        return (structured, result["isError"] == .bool(true))
    }

    // MARK: The JSON-RPC layer

    @Test func malformedJSONIsAParseErrorWithoutAnIDAndTheServerGoesOn() throws {
        let messages = try Self.exchange([.line("{not json"), .line("[1, 2]"), .line("   "), .modern(1, "tools/list")])
        #expect(messages.count == 3, "a blank line is skipped, not answered")
        #expect(Self.errorCode(nil, in: [messages[0]]) == JSONRPCError.parseErrorCode)
        #expect(messages[0]["id"] == nil, "an unreadable request's error has no id")
        #expect(Self.errorCode(nil, in: [messages[1]]) == JSONRPCError.invalidRequestCode, "a batch is not a message")
        #expect(Self.response(1, in: messages)?["result"]?["tools"]?.array?.count == MCPTools.all.count)
    }

    @Test func invalidRequestsKeepTheirIDWhenItCanBeRead() throws {
        let messages = try Self.exchange([
            .line(#"{"jsonrpc":"1.0","id":7,"method":"tools/list"}"#),
            .line(#"{"jsonrpc":"2.0","id":8}"#),
            .line(#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#),
            .line(#"{"jsonrpc":"2.0","id":9,"method":"tools/list","params":[1]}"#),
        ])
        #expect(Self.errorCode(7, in: messages) == JSONRPCError.invalidRequestCode)
        #expect(Self.errorCode(8, in: messages) == JSONRPCError.invalidRequestCode)
        #expect(Self.errorCode(9, in: messages) == JSONRPCError.invalidParamsCode)
        #expect(messages.count == 4, "the null id gets an error without an id")
    }

    @Test func unknownMethodsAreMethodNotFoundInBothEras() throws {
        let messages = try Self.exchange([
            .modern(1, "resources/list"),
            .modern(2, "ping"),
            .message([
                "id": .int(3), "method": .string("initialize"), "params": .object(["protocolVersion": .string("2025-11-25"), "capabilities": .object([:])]),
            ]),
            .message(["id": .int(4), "method": .string("prompts/list")]),
        ])
        #expect(Self.errorCode(1, in: messages) == JSONRPCError.methodNotFoundCode)
        #expect(Self.errorCode(2, in: messages) == JSONRPCError.methodNotFoundCode, "2026-07-28 removed ping")
        #expect(Self.errorCode(4, in: messages) == JSONRPCError.methodNotFoundCode)
    }

    @Test func wrongParamsAreInvalidParams() throws {
        let messages = try Self.exchange([
            .message(["id": .int(1), "method": .string("tools/list")]),
            .message([
                "id": .int(2), "method": .string("tools/list"),
                "params": .object([
                    "_meta": .object([
                        "io.modelcontextprotocol/protocolVersion": .string("2026-07-28")
                    ])
                ]),
            ]),
            .modern(3, "tools/call", ["arguments": .object([:])]),
            .call(4, "no_such_tool", [:]),
            .call(5, "search_blocks", ["query": .int(5)]),
            .call(6, "search_blocks", ["query": .string("tabs"), "limt": .int(2)]),
            .call(7, "search_blocks", [:]),
            .call(8, "search_blocks", ["query": .string("tabs"), "limit": .int(0)]),
            .modern(9, "tools/call", ["name": .string("list_blocks"), "arguments": .string("x")]),
            .message(["id": .int(10), "method": .string("initialize"), "params": .object([:])]),
        ])
        for id in 1...10 {
            #expect(Self.errorCode(id, in: messages) == JSONRPCError.invalidParamsCode, "request \(id)")
        }
        let typo = Self.response(6, in: messages)?["error"]?["message"]?.string ?? ""
        #expect(typo.contains("limt") && typo.contains("did you mean 'limit'"), "\(typo)")
    }

    @Test func aHugeLineIsRefusedInBoundedMemoryAndTheNextIsAnswered() throws {
        let huge =
            Data(#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":""#.utf8)
            + Data(repeating: UInt8(ascii: "a"), count: MCPServer.lineLimit + 10) + Data("\"}}\n".utf8)
        let messages = try Self.exchange([.bytes(huge), .modern(2, "tools/list")])
        #expect(messages.count == 2)
        #expect(Self.errorCode(nil, in: [messages[0]]) == JSONRPCError.invalidRequestCode)
        #expect(Self.response(2, in: messages)?["result"] != nil)
    }

    @Test func theLineSplitterDropsAnOverlongLineAsItArrives() {
        var splitter = LineSplitter(limit: 8)
        #expect(splitter.feed(Array("12345".utf8)) == [])
        #expect(splitter.feed(Array("6789012".utf8)) == [], "over the limit: dropped, nothing kept")
        #expect(splitter.feed(Array("34\nok\r\nla".utf8)) == [.tooLong(bytes: 14), .line(Data("ok".utf8))])
        #expect(splitter.finish() == [.line(Data("la".utf8))], "a last line without a newline still counts")
        #expect(splitter.finish() == [])
    }

    @Test func aRequestAtTheEndOfInputIsAnsweredAndTheServerReturns() throws {
        let last = Data(
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_blocks","arguments":{"limit":1},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#
                .utf8)
        let messages = try Self.exchange([.call(1, "search_blocks", ["query": .string("tabs")]), .bytes(last)])
        #expect(Self.toolResult(1, in: messages)?.isError == false)
        #expect(Self.toolResult(2, in: messages)?.structured["blocks"]?.array?.count == 1, "the unterminated last line is a request too")
    }

    @Test func notificationsAndResponsesAreNeverAnswered() throws {
        let messages = try Self.exchange([
            .message(["method": .string("notifications/initialized")]),
            .message(["method": .string("notifications/cancelled"), "params": .object(["requestId": .int(99)])]),
            .message(["method": .string("notifications/whatever")]),
            .message(["id": .int(5), "result": .object([:])]),
        ])
        #expect(messages.isEmpty)
    }

    @Test func aSecondCallWithTheSameIDWhileTheFirstRunsIsRefused() throws {
        let transport = StuckTransport()
        let context = makeContext(directory: repositoryRoot, transport: transport).0
        defer { transport.release.signal() }
        let stuck = Input.call(1, "list_blocks", ["registry": .string("http://127.0.0.1:9/")])
        let messages = try Self.exchange(
            [
                stuck, .waitFor(transport.started), stuck,
                .message(["method": .string("notifications/cancelled"), "params": .object(["requestId": .int(1)])]),
            ], context: context)
        #expect(messages.count == 1)
        #expect(Self.errorCode(1, in: messages) == JSONRPCError.invalidRequestCode)
    }

    // MARK: The two eras

    @Test func serverDiscoverHasTheModernShape() throws {
        let result = try #require(Self.response(1, in: try Self.exchange([.modern(1, "server/discover")]))?["result"]?.object)
        #expect(result["resultType"] == .string("complete"))
        #expect(result["supportedVersions"]?.strings == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
        #expect(result["capabilities"] == .object(["tools": .object(["listChanged": .bool(false)])]))
        #expect(result["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"] == .string("blocks"))
        #expect(result["ttlMs"] == .int(MCPServer.cacheMilliseconds) && result["cacheScope"] == .string("public"))
        #expect(result["instructions"]?.string?.isEmpty == false)
    }

    @Test func anUnsupportedVersionIsMinus32022WithTheSupportedOnes() throws {
        let messages = try Self.exchange([
            .message([
                "id": .int(1), "method": .string("tools/list"),
                "params": .object([
                    "_meta": .object([
                        "io.modelcontextprotocol/protocolVersion": .string("1900-01-01"),
                        "io.modelcontextprotocol/clientCapabilities": .object([:]),
                    ])
                ]),
            ])
        ])
        let error = try #require(Self.response(1, in: messages)?["error"]?.object)
        #expect(error["code"] == .int(-32022))
        #expect(error["data"]?["requested"] == .string("1900-01-01"))
        #expect(error["data"]?["supported"]?.strings == MCPServer.supportedVersions)
    }

    @Test func modernResultsCarryTheirTypeAndTheServerAndListsTheirCacheHints() throws {
        let messages = try Self.exchange([.modern(1, "tools/list"), .call(2, "list_blocks", ["limit": .int(2)])])
        let list = try #require(Self.response(1, in: messages)?["result"]?.object)
        #expect(list["resultType"] == .string("complete") && list["ttlMs"] != nil && list["cacheScope"] == .string("public"))
        let call = try #require(Self.response(2, in: messages)?["result"]?.object)
        #expect(call["resultType"] == .string("complete"))
        #expect(call["_meta"]?["io.modelcontextprotocol/serverInfo"]?["version"] == .string(BlocksCLI.version))
    }

    @Test func initializeNegotiatesALegacyVersionAndLegacyResultsHaveNoResultType() throws {
        func initialize(_ id: Int, _ version: String) -> Input {
            .message([
                "id": .int(id), "method": .string("initialize"),
                "params": .object([
                    "protocolVersion": .string(version), "capabilities": .object([:]),
                    "clientInfo": .object(["name": .string("test"), "version": .string("1")]),
                ]),
            ])
        }
        let messages = try Self.exchange([
            .message(["id": .int(1), "method": .string("ping")]),
            initialize(2, "2025-06-18"),
            initialize(3, "2099-01-01"),
            .message(["method": .string("notifications/initialized")]),
            .message(["id": .int(4), "method": .string("tools/list")]),
            .message(["id": .int(5), "method": .string("ping")]),
        ])
        #expect(Self.response(1, in: messages)?["result"] == .object([:]), "ping works before initialize")
        #expect(Self.response(2, in: messages)?["result"]?["protocolVersion"] == .string("2025-06-18"), "a version this server speaks is kept")
        let result = try #require(Self.response(3, in: messages)?["result"]?.object)
        #expect(result["protocolVersion"] == .string("2025-11-25"), "an unknown one gets the newest")
        #expect(result["serverInfo"]?["name"] == .string("blocks") && result["capabilities"]?["tools"] != nil)
        let tools = try #require(Self.response(4, in: messages)?["result"]?.object)
        #expect(tools["resultType"] == nil && tools["tools"]?.array?.count == MCPTools.all.count)
        #expect(Self.response(5, in: messages)?["result"] == .object([:]))
    }

    @Test func everyToolListsSchemasAndHints() throws {
        let tools = try #require(Self.response(1, in: try Self.exchange([.modern(1, "tools/list")]))?["result"]?["tools"]?.objects)
        #expect(
            tools.map { $0["name"]?.string ?? "" } == [
                "search_blocks", "list_blocks", "get_block", "project_status", "plan_add", "add_blocks", "diff_block", "update_blocks",
            ])
        for tool in tools {
            #expect(tool["inputSchema"]?["type"] == .string("object") && tool["outputSchema"]?["type"] == .string("object"))
            #expect(tool["description"]?.string?.contains("\n") == false, "one line")
            let name = tool["name"]?.string ?? ""
            #expect(tool["annotations"]?["readOnlyHint"] == .bool(!["add_blocks", "update_blocks"].contains(name)), "\(name)")
        }
    }

    // MARK: Cancellation

    @Test func aCancelledCallStopsWaitingAndIsNeverAnswered() throws {
        let transport = StuckTransport()
        let context = makeContext(directory: repositoryRoot, transport: transport).0
        defer { transport.release.signal() }
        let started = Date()
        let messages = try Self.exchange(
            [
                .call(1, "search_blocks", ["query": .string("tabs"), "registry": .string("http://127.0.0.1:9/")]),
                .waitFor(transport.started),
                .message(["method": .string("notifications/cancelled"), "params": .object(["requestId": .int(1), "reason": .string("test")])]),
                .call(2, "list_blocks", ["limit": .int(1)]),
            ], context: context)
        #expect(Self.response(1, in: messages) == nil, "a cancelled request gets no response")
        #expect(Self.toolResult(2, in: messages)?.isError == false, "the next call runs")
        #expect(Date().timeIntervalSince(started) < StuckTransport.holdSeconds / 2, "the cancel did not wait for the stuck transfer")
    }

    @Test func aCancelBeforeTheWriteLeavesTheProjectUntouched() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let before = try project.treeHash()
        let cancellation = MCPCancellation()
        cancellation.cancel()
        let context = makeContext(directory: repositoryRoot, environment: ["SOURCE_DATE_EPOCH": "1767225600"]).0
        let result = try MCPTools.call(
            "add_blocks",
            arguments: .object([
                "projectPath": .string(project.root.path), "names": .array([.string("scrolling-strip")]),
            ]), context: context, cancellation: cancellation)
        #expect(result.isError)
        #expect(try project.treeHash() == before)
    }

    // MARK: The tools

    static func call(_ tool: String, _ arguments: [String: JSONValue], context: CommandContext? = nil) throws -> MCPToolResult {
        let context = context ?? makeContext(directory: repositoryRoot, environment: ["SOURCE_DATE_EPOCH": "1767225600"]).0
        let result = try MCPTools.call(tool, arguments: .object(arguments), context: context, cancellation: MCPCancellation())
        if !result.isError, let schema = MCPTools.named(tool)?.outputSchema {
            #expect(MCPSchema.problem(with: .object(result.structured), against: schema, at: tool) == nil, "\(tool) keeps its output schema")
        }
        #expect(!result.isError || result.structured["error"]?["message"] != nil)
        return result
    }

    static func cliJSON(_ arguments: [String], in directory: URL = repositoryRoot) throws -> JSONValue {
        let run = runBlocks(arguments + ["--json"], in: directory, environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        return try JSONReader.parse(Data(run.out.utf8))
    }

    @Test func theCatalogToolsGiveWhatTheCommandLineGives() throws {
        #expect(try .object(Self.call("search_blocks", ["query": .string("tabs")]).structured) == Self.cliJSON(["search", "tabs", "--limit", "20"]))
        #expect(
            try .object(Self.call("search_blocks", ["query": .string("pestanas"), "limit": .int(2)]).structured)
                == Self.cliJSON(["search", "pestanas", "--limit", "2"]))
        #expect(try .object(Self.call("get_block", ["name": .string("pager")]).structured) == Self.cliJSON(["info", "pager"]))
        let list = try Self.call("list_blocks", ["limit": .int(3)]).structured
        let everything = try Self.cliJSON(["list"])["blocks"]?.array ?? []
        #expect(
            list["blocks"]?.array == Array(everything.prefix(3)) && list["total"] == .int(everything.count) && list["truncated"] == .bool(everything.count > 3))
        let text = try Self.call("search_blocks", ["query": .string("tabs")])
        #expect(try JSONReader.parse(Data(text.text.utf8)) == .object(text.structured), "the text is the structured content")
    }

    @Test func catalogToolErrorsAreToolErrors() throws {
        #expect(try Self.call("get_block", ["name": .string("no-such-block")]).isError)
        #expect(try Self.call("get_block", ["name": .string("../etc")]).isError, "a name that is no block name is refused before any read")
        #expect(try Self.call("search_blocks", ["query": .string("tabs"), "platform": .string("windows95")]).isError)
    }

    @Test func getBlockSourceIsWhatAddWrites() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let got = try Self.call("get_block", ["name": .string("pager"), "includeSource": .bool(true)]).structured
        #expect(try !Self.call("add_blocks", ["projectPath": .string(project.root.path), "names": .array([.string("pager")])]).isError)
        for file in got["files"]?.objects ?? [] {
            let path = try #require(file["path"]?.string)
            #expect(file["source"]?.string == project.read("Sources/App/Blocks/pager/" + path), "\(path)")
        }
    }

    @Test func addAndUpdateThroughMCPNeverOverwriteAUsersChange() throws {
        let catalog = try TestCatalog.make([.standard("strip", type: "Strip")])
        let project = try TestProject.make()
        defer {
            catalog.delete()
            project.delete()
        }
        let root = ["projectPath": JSONValue.string(project.root.path), "registry": .string(catalog.root.path)]
        var context = makeContext(directory: repositoryRoot, environment: ["SOURCE_DATE_EPOCH": "1767225600"]).0
        context.registry = catalog.root.path
        func call(_ tool: String, _ extra: [String: JSONValue]) throws -> MCPToolResult {
            var arguments = root.filter { $0.key == "projectPath" }
            arguments.merge(extra) { $1 }
            return try Self.call(tool, arguments, context: context)
        }

        let before = try project.treeHash()
        let plan = try call("plan_add", ["names": .array([.string("strip")])])
        #expect(try plan.structured["dryRun"] == .bool(true) && project.treeHash() == before, "plan_add writes nothing")
        let added = try call("add_blocks", ["names": .array([.string("strip")])])
        #expect(!added.isError)
        #expect(try call("project_status", [:]).structured == Self.cliJSON(["status", "--registry", catalog.root.path], in: project.root).object)

        let logic = "Sources/App/Blocks/strip/StripLogic.swift"
        let mine = try #require(project.read(logic)) + "// mine\n"
        try project.write(logic, mine)
        let conflict = try call("add_blocks", ["names": .array([.string("strip")])])
        #expect(conflict.isError && conflict.structured["conflicts"] == .array([.string(logic)]))
        #expect(conflict.structured["choices"]?.array?.isEmpty == false && conflict.text.contains("overwrite: true"))
        #expect(project.read(logic) == mine, "the user's file is untouched")
        let diffs = try call("plan_add", ["names": .array([.string("strip")])]).structured["diffs"]?.objects ?? []
        #expect(diffs.map { $0["path"] } == [.string(logic)] && diffs.first?["diff"]?.string?.contains("-// mine") == true)
        let local = try call("diff_block", [:]).structured
        #expect(
            local["different"] == .bool(true)
                && local["files"]?.objects?.contains { $0["path"] == .string(logic) && $0["diff"]?.string?.contains("+// mine") == true } == true)

        // A new version upstream: update merges and keeps the user's line.
        try catalog.put(.standard("strip", type: "Strip", version: "2.0.0"))
        let upstream = try call("diff_block", ["upstream": .bool(true)]).structured
        #expect(upstream["upstream"] == .bool(true) && upstream["different"] == .bool(true))
        let updated = try call("update_blocks", [:])
        #expect(!updated.isError, "\(updated.text)")
        #expect(project.read(logic)?.contains("// mine") == true && project.read(logic)?.contains("2.0.0") == true)

        // A change on both sides of one line is a conflict, written with markers and reported as an error.
        try project.write(logic, (project.read(logic) ?? "").replacingOccurrences(of: "\"2.0.0\"", with: "\"mine\""))
        try catalog.put(.standard("strip", type: "Strip", version: "3.0.0"))
        let conflicted = try call("update_blocks", [:])
        #expect(conflicted.isError && conflicted.structured["conflicts"]?.objects?.first?["path"] == .string(logic))
        #expect(project.read(logic)?.contains("<<<<<<<") == true && project.read(logic)?.contains("\"mine\"") == true)

        let overwritten = try call("add_blocks", ["names": .array([.string("strip")]), "overwrite": .bool(true)])
        #expect(!overwritten.isError && project.read(logic)?.contains("// mine") == false)
    }

    @Test func projectPathsOutsideAProjectAreRefused() throws {
        let empty = try TestProject.makeEmpty()
        let project = try TestProject.make()
        defer {
            empty.delete()
            project.delete()
        }
        let link = project.root.appendingPathComponent("escape")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: empty.root.path)
        let before = try project.treeHash()
        for path in [
            "/", "relative", empty.root.path, project.root.path + "/../" + empty.root.lastPathComponent, link.path,
            project.root.appendingPathComponent("Package.swift").path, project.root.path + "/missing",
        ] {
            let result = try Self.call("add_blocks", ["projectPath": .string(path), "names": .array([.string("pager")])])
            #expect(result.isError, "\(path)")
        }
        #expect(try project.treeHash() == before)
        #expect(
            !FileManager.default.fileExists(atPath: empty.root.appendingPathComponent("Blocks").path), "nothing was written in the folder the link leads to")
        #expect(
            try !Self.call("project_status", ["projectPath": .string(project.root.appendingPathComponent("Sources/App").path)]).isError,
            "a folder inside a project is in it")
    }

    @Test func addRefusesArchivesAndURLsInPlaceOfNames() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        for name in ["https://example.invalid/x.tar.gz", "/tmp/x.zip", "Blocks/../x"] {
            let result = try Self.call("add_blocks", ["projectPath": .string(project.root.path), "names": .array([.string(name)])])
            #expect(result.isError, "\(name)")
        }
    }

    // MARK: The command

    @Test func theCommandServesItsInputAndExitsAtTheEnd() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        ]
        let answers = AnswerQueue(lines)
        var (context, output, _) = makeContext(directory: project.root)
        context.readLine = { answers.next() }
        #expect(BlocksCLI.run(["mcp"], context: &context) == 0)
        let messages = try output.text.split(separator: "\n").map { try JSONReader.parse(Data($0.utf8)) }
        #expect(messages.count == 2 && Self.response(2, in: messages)?["result"]?["tools"] != nil)
        #expect(BlocksCLI.run(["mcp", "--client", "cursor"], context: &context) == 64)
        #expect(BlocksCLI.run(["mcp", "serve"], context: &context) == 64)
    }

    @Test func configMergesKeepingWhatIsThere() throws {
        let client = try MCPClientConfig.named("vscode")
        let existing = Data(#"{"inputs": [], "servers": {"other": {"type": "stdio", "command": "x"}, "blocks": {"command": "old"}}}"#.utf8)
        let merged = try client.merged(into: existing, command: "/opt/blocks", path: "mcp.json")
        #expect(merged["inputs"] == .array([]))
        #expect(merged["servers"]?["other"] == .object(["type": .string("stdio"), "command": .string("x")]))
        #expect(merged["servers"]?["blocks"] == .object(["type": .string("stdio"), "command": .string("/opt/blocks"), "args": .array([.string("mcp")])]))
        #expect(
            try MCPClientConfig.named("cursor").merged(into: nil, command: "b", path: "p")
                == .object(["mcpServers": .object(["blocks": .object(["command": .string("b"), "args": .array([.string("mcp")])])])]))
        #expect(throws: MCPConfigError.self) { try client.merged(into: Data("// comment\n{}".utf8), command: "b", path: "p") }
        #expect(throws: MCPConfigError.self) { try client.merged(into: Data(#"{"servers": []}"#.utf8), command: "b", path: "p") }
        #expect(throws: MCPConfigError.self) { try MCPClientConfig.named("emacs") }
    }

    @Test func configWriteWithTheBinaryMergesAtomicallyAndRefusesWhatItCannotRead() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        try project.write(".cursor/mcp.json", #"{"mcpServers": {"other": {"command": "x"}}, "theme": "dark"}"#)
        let written = try project.runBinary(["mcp", "config", "--client", "cursor", "--write"])
        #expect(written.code == 0, "\(written.errors)")
        let file = try JSONReader.parse(Data((project.read(".cursor/mcp.json") ?? "").utf8))
        let binary = try TestProject.binary().resolvingSymlinksInPath().path
        #expect(file["theme"] == .string("dark") && file["mcpServers"]?["other"] != nil)
        #expect(file["mcpServers"]?["blocks"] == .object(["command": .string(binary), "args": .array([.string("mcp")])]))

        try project.write(".vscode/mcp.json", "{ // not JSON\n")
        let refused = try project.runBinary(["mcp", "config", "--client", "vscode", "--write"])
        #expect(refused.code == 1 && refused.errors.contains("left as it is"))
        #expect(project.read(".vscode/mcp.json") == "{ // not JSON\n")

        let printed = try project.runBinary(["mcp", "config", "--client", "claude-code"])
        #expect(
            try JSONReader.parse(Data(printed.output.utf8))
                == .object([
                    "mcpServers": .object([
                        "blocks": .object([
                            "type": .string("stdio"), "command": .string(binary), "args": .array([.string("mcp")]),
                        ])
                    ])
                ]))
        #expect(!project.exists(".mcp.json"), "printing writes nothing")
    }

    @Test func theBinaryWritesOnlyProtocolLinesOnStandardOutput() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let input = project.url("input.jsonl")
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_blocks","arguments":{"projectPath":"\#(project.root.path)","names":["pager"]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
            "not json",
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_blocks","arguments":{"query":"zzzzqqq"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let run = try runShell("'\(try TestProject.binary().path)' mcp < '\(input.path)'", in: project.root, environment: project.binaryEnvironment([:]))
        #expect(run.code == 0)
        let outputLines = run.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(outputLines.last == "" && outputLines.count == 4, "three messages, each one line: \(run.out)")
        for line in outputLines.dropLast() {
            #expect((try? JSONReader.parse(Data(line.utf8)))?["jsonrpc"] == .string("2.0"), "\(line)")
        }
        #expect(run.err.contains("Parse error"), "the log goes to standard error")
    }

    func runShell(_ command: String, in directory: URL, environment: [String: String]) throws -> (code: Int32, out: String, err: String) {
        try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: directory, environment: environment)
    }
}

/// A transport whose every transfer hangs until released (or `holdSeconds` pass), to
/// stand for a registry that never answers.
final class StuckTransport: HTTPTransport, @unchecked Sendable {
    static let holdSeconds = 20.0
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    private func hang(_ url: String) -> HTTPError {
        started.signal()
        _ = release.wait(timeout: .now() + Self.holdSeconds)
        release.signal()
        return .transport(url: url, reason: "released")
    }

    func get(_ request: HTTPRequest) throws -> HTTPResponse { throw hang(request.url) }

    func download(_ downloads: [HTTPDownload], maxParallel: Int, progress: (@Sendable (TransferProgress) -> Void)?) -> [Result<HTTPResponse, HTTPError>] {
        let error = hang(downloads.first?.request.url ?? "")
        return downloads.map { _ in .failure(error) }
    }

    func fetch(_ requests: [HTTPRequest], maxParallel: Int) -> [Result<HTTPResponse, HTTPError>] {
        let error = hang(requests.first?.url ?? "")
        return requests.map { _ in .failure(error) }
    }

    func prepare() {}
}
