import Foundation
import MindPadRecognition
import MindPadRules

/// What a client may send, decoded and checked for shape. Semantics (is the
/// room there, is it your question) are the hub's and the rules' business.
enum ClientMessage: Sendable {
    case identify(name: String, token: String?)
    case createRoom(mode: GameMode, maxPlayers: Int?, maxSpectators: Int?)
    case joinRoom(code: String)
    case leaveRoom
    case ready(Bool)
    case start
    case rematch
    /// Appends `points` to stroke number `stroke` (0-based) of the drawing
    /// for `question`; `stroke` equal to the stroke count starts a new one.
    case points(question: QuestionID, stroke: Int, points: [StrokePoint])
    case clear(question: QuestionID)
    case submit(question: QuestionID)

    static let types = ["identify", "create_room", "join_room", "leave_room", "ready", "start", "rematch",
                        "points", "clear", "submit"]

    /// Parses one text message.
    static func decode(_ text: String) -> Result<ClientMessage, ProtocolError> {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            return .failure(ProtocolError("bad_json", "The message is not valid JSON."))
        }
        guard let fields = object as? [String: Any] else {
            return .failure(ProtocolError("bad_message", "A message must be a JSON object with a \"type\"."))
        }
        guard let type = fields["type"] as? String else {
            return .failure(ProtocolError("bad_message", "A message must be a JSON object with a \"type\"."))
        }
        let reader = FieldReader(fields: fields, type: type)
        do {
            return .success(try reader.message())
        } catch {
            return .failure(error)
        }
    }
}

/// A refusal sent to the client as `{"type":"error","code":…,"message":…}`.
struct ProtocolError: Error, Sendable, Equatable {
    let code: String
    let message: String
    /// The `type` of the message that caused it, when known.
    var request: String?

    init(_ code: String, _ message: String, request: String? = nil) {
        self.code = code
        self.message = message
        self.request = request
    }
}

private struct FieldReader {
    let fields: [String: Any]
    let type: String

    func message() throws(ProtocolError) -> ClientMessage {
        switch type {
        case "identify":
            return .identify(name: try string("name"), token: try optionalString("token"))
        case "create_room":
            let modeText = try string("mode")
            guard let mode = GameMode(rawValue: modeText) else {
                throw bad("\"mode\" must be \"normal\", \"survival\" or \"time_attack\".")
            }
            let maxPlayers = try optionalInt("max_players")
            if let maxPlayers, !(1...8).contains(maxPlayers) { throw bad("\"max_players\" must be 1…8.") }
            let maxSpectators = try optionalInt("max_spectators")
            if let maxSpectators, !(0...16).contains(maxSpectators) { throw bad("\"max_spectators\" must be 0…16.") }
            return .createRoom(mode: mode, maxPlayers: maxPlayers, maxSpectators: maxSpectators)
        case "join_room":
            return .joinRoom(code: try string("code"))
        case "leave_room":
            return .leaveRoom
        case "ready":
            guard let value = fields["ready"], Self.isBool(value), let flag = value as? Bool else {
                throw bad("\"ready\" must be true or false.")
            }
            return .ready(flag)
        case "start":
            return .start
        case "rematch":
            return .rematch
        case "points":
            let question = try questionID()
            guard let stroke = try optionalInt("stroke"), stroke >= 0 else {
                throw bad("\"stroke\" must be a stroke number, 0 or more.")
            }
            guard let raw = fields["points"] as? [Any] else { throw bad("\"points\" must be an array of [x, y, t].") }
            var points: [StrokePoint] = []
            points.reserveCapacity(raw.count)
            for item in raw {
                guard let triple = item as? [Any], (2...3).contains(triple.count),
                      let x = Self.number(triple[0]), let y = Self.number(triple[1]) else {
                    throw bad("Each point must be [x, y] or [x, y, t] with numbers.")
                }
                let t = triple.count == 3 ? Self.number(triple[2]) : 0
                guard let t else { throw bad("Each point must be [x, y] or [x, y, t] with numbers.") }
                points.append(StrokePoint(x: x, y: y, t: t))
            }
            return .points(question: question, stroke: stroke, points: points)
        case "clear":
            return .clear(question: try questionID())
        case "submit":
            return .submit(question: try questionID())
        default:
            throw ProtocolError("unknown_type", "Unknown message type \"\(Self.printable(type))\".", request: nil)
        }
    }

    private func bad(_ message: String) -> ProtocolError {
        ProtocolError("bad_message", message, request: type)
    }

    private func string(_ key: String) throws(ProtocolError) -> String {
        guard let s = fields[key] as? String else { throw bad("\"\(key)\" must be a string.") }
        return s
    }

    private func optionalString(_ key: String) throws(ProtocolError) -> String? {
        guard let value = fields[key], !(value is NSNull) else { return nil }
        guard let s = value as? String else { throw bad("\"\(key)\" must be a string.") }
        return s
    }

    private func optionalInt(_ key: String) throws(ProtocolError) -> Int? {
        guard let value = fields[key], !(value is NSNull) else { return nil }
        guard let d = Self.number(value), d == d.rounded(), abs(d) < 1e9 else { throw bad("\"\(key)\" must be an integer.") }
        return Int(d)
    }

    private func questionID() throws(ProtocolError) -> QuestionID {
        guard let text = fields["question"] as? String, let id = QuestionID(wire: text) else {
            throw bad("\"question\" must be a question id such as \"r1q0\", as sent in \"question\".")
        }
        return id
    }

    static func number(_ value: Any) -> Double? {
        guard let n = value as? NSNumber, !isBool(value) else { return nil }
        return n.doubleValue
    }

    /// JSONSerialization hands out booleans as NSNumber, and on Linux `1 is
    /// Bool` holds; a JSON `true`/`false` is the one with objCType "c".
    static func isBool(_ value: Any) -> Bool {
        if value is String { return false }
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    /// The type as the client sent it, cut short and without controls.
    static func printable(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.filter { $0.value >= 0x20 && $0 != "\"" && $0 != "\\" }.prefix(40)))
    }
}

extension QuestionID {
    /// The wire form, `r<round>q<index>` (what `description` prints).
    var wire: String { description }

    init?(wire: String) {
        let parts = wire.split(separator: "q", maxSplits: 1)
        guard parts.count == 2, parts[0].first == "r",
              let round = Int(parts[0].dropFirst()), let index = Int(parts[1]),
              round >= 1, index >= 0, round < 1_000_000, index < 1_000_000 else { return nil }
        self.init(round: round, index: index)
    }
}
