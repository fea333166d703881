import Foundation
import MindPadRecognition
import MindPadTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A protocol client for the realtime tests: a raw RFC 6455 socket (so it can
/// send any Origin and any bytes), JSON in and out, and waits with
/// deadlines — never a sleep. Messages that arrive while waiting for another
/// type stay in the inbox for later waits.
final class RealtimeClient: @unchecked Sendable {
    typealias Message = [String: Any]

    let fd: Int32
    let label: String
    private var buffered: [UInt8] = []
    private(set) var inbox: [Message] = []
    /// Every message received, in order (for rate and order checks).
    private(set) var log: [(at: ContinuousClock.Instant, message: Message)] = []
    private(set) var closeFrame: (code: UInt16?, reason: String)?
    /// Every text frame both ways, as sent (`→`) and received (`←`).
    private(set) var transcript: [(at: ContinuousClock.Instant, line: String)] = []
    private(set) var handshakeStatus = 0

    /// `receiveBuffer`: a small kernel receive buffer (SO_RCVBUF, set before
    /// connecting), for a client that reads slowly.
    /// `path`: the request target (`/ws?instance=i2` in a cluster).
    init(port: Int, path: String = "/ws", label: String = "client", origin: String? = nil, subprotocol: String = "mindpad.v1",
         expectWelcome: Bool = true, receiveBuffer: Int? = nil) throws {
        self.label = label
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { throw RealtimeTestError( "connect failed: errno \(errno)") }
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Key: \(Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())\r\n"
        head += "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: \(subprotocol)\r\n"
        if let origin { head += "Origin: \(origin)\r\n" }
        head += "\r\n"
        try write(Array(head.utf8))
        let deadline = ContinuousClock.now + .seconds(5)
        var status = 0
        while true {
            if let end = Self.find(Array("\r\n\r\n".utf8), in: buffered) {
                let response = String(decoding: buffered[..<end], as: UTF8.self)
                buffered.removeFirst(end)
                status = Int(response.split(separator: " ").dropFirst().first ?? "") ?? 0
                break
            }
            guard try fill(until: deadline) else { break }  // closed: status stays 0
        }
        handshakeStatus = status
        if expectWelcome && status == 101 { _ = try next("welcome") }
    }

    deinit { Glibc.close(fd) }

    // MARK: Sending

    func send(_ fields: Message) throws {
        let data = try JSONSerialization.data(withJSONObject: fields)
        try sendText(String(decoding: data, as: UTF8.self))
    }

    func sendText(_ text: String) throws {
        transcript.append((.now, "\(label) → \(text)"))
        try sendFrame(opcode: 0x1, payload: Array(text.utf8))
    }

    /// Sends every text as its own frame, all in one `send`: a flood that
    /// reaches the server's socket at once, before it has read any of it.
    func sendTextsAtOnce(_ texts: [String]) throws {
        for text in texts { transcript.append((.now, "\(label) → \(text)")) }
        try write(texts.flatMap { TestWebSocket.clientFrame(opcode: 0x1, payload: Array($0.utf8)) })
    }

    func sendFrame(opcode: UInt8, payload: [UInt8]) throws {
        try write(TestWebSocket.clientFrame(opcode: opcode, payload: payload))
    }

    /// Drops the TCP connection without a close frame (a lost network).
    func dropConnection() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RealtimeTestError( "\(label): send failed: errno \(errno)") }
            offset += n
        }
    }

    // MARK: Receiving

    /// The first message of `type` (and matching `where`), from the inbox or
    /// the socket, within `timeout`.
    @discardableResult
    func next(_ type: String, timeout: Duration = .seconds(5), where match: (Message) -> Bool = { _ in true }) throws -> Message {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let i = inbox.firstIndex(where: { $0["type"] as? String == type && match($0) }) {
                return inbox.remove(at: i)
            }
            guard try receiveOne(until: deadline) else {
                let seen = inbox.map { ($0["type"] as? String) ?? "?" }
                throw RealtimeTestError( "\(label): no \(type) within \(timeout) (close: \(String(describing: closeFrame)); inbox: \(seen))")
            }
        }
    }

    /// The first message whose type is in `types` and that matches.
    func next(oneOf types: Set<String>, timeout: Duration = .seconds(5), where match: (Message) -> Bool = { _ in true }) throws -> Message {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let i = inbox.firstIndex(where: { types.contains($0["type"] as? String ?? "") && match($0) }) {
                return inbox.remove(at: i)
            }
            guard try receiveOne(until: deadline) else {
                throw RealtimeTestError("\(label): none of \(types) within \(timeout)")
            }
        }
    }

    /// Waits for an error with `code`.
    @discardableResult
    func error(_ code: String, timeout: Duration = .seconds(5)) throws -> Message {
        try next("error", timeout: timeout) { $0["code"] as? String == code }
    }

    /// Reads until the server closes; returns its close code.
    func waitForClose(timeout: Duration = .seconds(5)) throws -> UInt16? {
        let deadline = ContinuousClock.now + timeout
        while closeFrame == nil {
            guard try receiveOne(until: deadline) else { break }
        }
        guard let closeFrame else { throw RealtimeTestError( "\(label): not closed within \(timeout)") }
        return closeFrame.code
    }

    func inboxInsert(_ message: Message) { inbox.insert(message, at: 0) }

    /// After the close frame: how the server ends the stream, read to its
    /// end within `timeout`: 0 for an orderly end (FIN), else the errno of
    /// the failed read (ECONNRESET: a reset), nil if it did not end.
    func streamEnd(timeout: Duration = .seconds(5)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) >= 0 else { return errno }
            guard pfd.revents != 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return 0 }
            if n < 0 { return errno }
        }
        return nil
    }

    /// Removes and returns every inbox message of `type`.
    func drain(_ type: String) -> [Message] {
        let matching = inbox.filter { $0["type"] as? String == type }
        inbox.removeAll { $0["type"] as? String == type }
        return matching
    }

    /// Reads whatever arrives within `duration` into the inbox.
    func pump(for duration: Duration) {
        let deadline = ContinuousClock.now + duration
        while (try? receiveOne(until: deadline)) == true {}
    }

    /// Reads one frame into the inbox; false on deadline or close.
    private func receiveOne(until deadline: ContinuousClock.Instant) throws -> Bool {
        while true {
            if let (opcode, payload, used) = Self.parseFrame(buffered) {
                buffered.removeFirst(used)
                switch opcode {
                case 0x1:
                    transcript.append((.now, "\(label) ← " + String(decoding: payload, as: UTF8.self)))
                    let object = try JSONSerialization.jsonObject(with: Data(payload)) as? Message ?? [:]
                    inbox.append(object)
                    log.append((ContinuousClock.now, object))
                    return true
                case 0x8:
                    let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
                    closeFrame = (code, String(decoding: payload.dropFirst(2), as: UTF8.self))
                    return false
                case 0x9:
                    try sendFrame(opcode: 0xA, payload: payload)
                default:
                    continue
                }
                continue
            }
            guard try fill(until: deadline) else { return false }
        }
    }

    /// Reads more bytes; false on deadline or end of stream.
    private func fill(until deadline: ContinuousClock.Instant) throws -> Bool {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return false }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000) + 1
        guard poll(&pfd, 1, ms) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else {
            if closeFrame == nil { closeFrame = (nil, "connection dropped") }
            return false
        }
        buffered.append(contentsOf: chunk[..<n])
        return true
    }

    private static func parseFrame(_ b: [UInt8]) -> (UInt8, [UInt8], Int)? {
        guard b.count >= 2 else { return nil }
        var length = Int(b[1] & 0x7f)
        var offset = 2
        if length == 126 {
            guard b.count >= 4 else { return nil }
            length = Int(b[2]) << 8 | Int(b[3])
            offset = 4
        } else if length == 127 {
            guard b.count >= 10 else { return nil }
            length = b[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard b.count >= offset + length else { return nil }
        return (b[0] & 0x0f, Array(b[offset..<(offset + length)]), offset + length)
    }

    private static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where Array(hay[i..<(i + needle.count)]) == needle {
            return i + needle.count
        }
        return nil
    }

    // MARK: Protocol steps

    @discardableResult
    func identify(_ name: String, token: String? = nil) throws -> Message {
        var fields: Message = ["type": "identify", "name": name]
        if let token { fields["token"] = token }
        try send(fields)
        return try next("identified")
    }

    /// Creates a room; returns its code.
    func createRoom(mode: String, maxPlayers: Int? = nil, maxSpectators: Int? = nil) throws -> String {
        var fields: Message = ["type": "create_room", "mode": mode]
        if let maxPlayers { fields["max_players"] = maxPlayers }
        if let maxSpectators { fields["max_spectators"] = maxSpectators }
        try send(fields)
        return try next("room")["code"] as! String
    }

    /// Says ready, and waits until `host` has seen it (the host may start
    /// once every other racer is ready).
    func ready(seenBy host: RealtimeClient) throws {
        try send(["type": "ready", "ready": true])
        let me = label
        try host.next("room_updated") { message in
            let members = (message["room"] as? [String: Any])?["members"] as? [[String: Any]] ?? []
            return members.contains { ($0["name"] as? String)?.lowercased() == me.lowercased() && $0["ready"] as? Bool == true }
        }
    }

    @discardableResult
    func join(_ code: String) throws -> Message {
        try send(["type": "join_room", "code": code])
        return try next("room")
    }

    /// Draws `digit` in `batches` batches for `question`, then waits for the
    /// live guess that covers every point. Returns that guess.
    @discardableResult
    func draw(_ digit: Int, question: String, batches: Int = 3, waitForGuess: Bool = true) throws -> Message {
        try draw(strokes: DigitTemplates.strokes(for: digit), question: question, batches: batches, waitForGuess: waitForGuess)
    }

    /// Writes `number` left to right (`DigitTemplates.strokes(forNumber:)`),
    /// then waits for the live guess that covers every point.
    @discardableResult
    func drawNumber(_ number: String, question: String, batches: Int = 2, waitForGuess: Bool = true) throws -> Message {
        try draw(strokes: DigitTemplates.strokes(forNumber: number), question: question, batches: batches, waitForGuess: waitForGuess)
    }

    @discardableResult
    func draw(strokes: [[StrokePoint]], question: String, batches: Int, waitForGuess: Bool) throws -> Message {
        var total = 0
        for (s, stroke) in strokes.enumerated() {
            let size = max(1, (stroke.count + batches - 1) / batches)
            for start in stride(from: 0, to: stroke.count, by: size) {
                let part = stroke[start..<min(stroke.count, start + size)].map { [$0.x, $0.y, $0.t] }
                try send(["type": "points", "question": question, "stroke": s, "points": part])
                total += part.count
            }
        }
        guard waitForGuess else { return ["points": total] }
        return try next("guess", timeout: .seconds(5)) { $0["question"] as? String == question && $0["points"] as? Int == total }
    }

    /// Draws `digit`, submits, and returns `graded`.
    func answer(_ digit: Int, question: String) throws -> Message {
        try draw(digit, question: question)
        try send(["type": "submit", "question": question])
        return try next("graded", timeout: .seconds(5)) { $0["question"] as? String == question }
    }
}

/// The hidden digit of a `question` message's prompt, worked out as a player would.
func expectedDigit(_ question: RealtimeClient.Message) -> Int {
    let prompt = question["prompt"] as! [String: Any]
    let lhs = prompt["lhs"] as! Int, rhs = prompt["rhs"] as! Int
    let result: Int
    switch prompt["operation"] as! String {
    case "+": result = lhs + rhs
    case "-": result = lhs - rhs
    case "*": result = lhs * rhs
    default: result = lhs / rhs
    }
    let digits = Array(String(result))
    return Int(String(digits[prompt["hidden_position"] as! Int]))!
}

struct RealtimeTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
