import Foundation
import MindPadJSON
import MindPadRecognition
import MindPadRules

/// What a client may send, decoded and checked for shape. Semantics (is the
/// room there, is it your question) are the hub's and the rules' business.
enum ClientMessage: Sendable {
    case identify(name: String, token: String?)
    /// `game` is a kind's identifier (`mindpad` when absent). `fish`: the
    /// player's pet fish to play with (games that play with fish).
    /// `level`: the level to race (games with levels; checked by the hub).
    /// `assignment`: the id of work a teacher set for the player's class
    /// (issue 46): a solo run of it, kept with the class.
    case createRoom(game: String, mode: GameMode, maxPlayers: Int?, maxSpectators: Int?, fish: UUID?, level: Int?,
                    assignment: String? = nil)
    case joinRoom(code: String, fish: UUID?)
    case leaveRoom
    case ready(Bool)
    case start
    case rematch
    /// Appends `points` to stroke number `stroke` (0-based) of the drawing
    /// for `question`; `stroke` equal to the stroke count starts a new one.
    case points(question: QuestionID, stroke: Int, points: [StrokePoint])
    case clear(question: QuestionID)
    /// Takes back the drawing's last stroke, if it is number `stroke`
    /// (so an undo sent twice, or for a stroke the server never got,
    /// takes back nothing more).
    case undo(question: QuestionID, stroke: Int)
    /// A handwriting kind's answer is the drawing (`answer` absent); a tap
    /// or move kind's is `answer`, in the kind's `Answer` form.
    case submit(question: QuestionID, answer: JSON?)
    /// The player's pick among the readings a `choice` offered for
    /// `question`: a digit (7 or "7"), or a number's digits as a string
    /// with each unsure place picked ("3740"). Checked by the hub.
    case choose(question: QuestionID, answer: JSON)
    /// The player's reading settings: `learn` false switches off the
    /// reader's learning of their hand (and forgets it), true on;
    /// `forget` forgets what it learned (absent fields: unchanged).
    case reading(learn: Bool?, forget: Bool)
    /// A teacher's projector opens (or takes back) the lesson of their
    /// class `classID` (issue 46): a room the teacher conducts. On a
    /// connection of its own, never a player's.
    case hostLesson(token: String, classID: String, game: String, mode: GameMode, level: Int?)
    /// What the teacher conducting a lesson asks; `player` for `kick`.
    case lesson(LessonAction, player: String?)

    /// What a teacher may ask of their lesson.
    enum LessonAction: String, Sendable, CaseIterable {
        case start, pause, resume, stop, next, lock, unlock, kick, end
    }

    /// The client message types, as the protocol names them.
    enum Kind: String, Sendable, CaseIterable {
        case identify, createRoom = "create_room", joinRoom = "join_room", leaveRoom = "leave_room"
        case ready, start, rematch, points, clear, undo, submit, choose, reading
        case hostLesson = "host_lesson", lesson
    }

    var kind: Kind {
        switch self {
        case .identify: .identify
        case .createRoom: .createRoom
        case .joinRoom: .joinRoom
        case .leaveRoom: .leaveRoom
        case .ready: .ready
        case .start: .start
        case .rematch: .rematch
        case .points: .points
        case .clear: .clear
        case .undo: .undo
        case .submit: .submit
        case .choose: .choose
        case .reading: .reading
        case .hostLesson: .hostLesson
        case .lesson: .lesson
        }
    }

    var type: String { kind.rawValue }

    /// Parses one text message.
    static func decode(_ text: String) -> Result<ClientMessage, ProtocolError> {
        let json: JSON
        do {
            json = try JSON.parse(text)
        } catch {
            return .failure(ProtocolError(.badJSON, "The message is not valid JSON (\(error.reason) at byte \(error.offset))."))
        }
        guard case .object = json, let type = json["type"]?.string else {
            return .failure(ProtocolError(.badMessage, "A message must be a JSON object with a \"type\"."))
        }
        guard let kind = Kind(rawValue: type) else {
            return .failure(ProtocolError(.unknownType, "Unknown message type \"\(printable(type))\".", request: printable(type)))
        }
        do {
            return .success(try FieldReader(json: json, kind: kind).message())
        } catch {
            return .failure(error)
        }
    }

    /// Text a client sent, made safe to echo: at most 40 characters, no
    /// control, format or bidirectional characters, no quotes or backslashes.
    static func printable(_ s: String) -> String {
        let kept = s.unicodeScalars.filter { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                return false
            default:
                return scalar != "\"" && scalar != "\\"
            }
        }
        return String(String.UnicodeScalarView(kept.prefix(40)))
    }
}

/// Reads the fields of one message of a known type.
private struct FieldReader {
    let json: JSON
    let kind: ClientMessage.Kind

    func message() throws(ProtocolError) -> ClientMessage {
        switch kind {
        case .identify:
            return .identify(name: try string("name"), token: try optionalString("token"))
        case .createRoom:
            let modeText = try string("mode")
            guard let mode = GameMode(rawValue: modeText) else {
                throw bad("\"mode\" must be \"normal\", \"survival\" or \"time_attack\".")
            }
            let game = try optionalString("game") ?? GameRegistry.defaultGame
            let maxPlayers = try optionalInt("max_players")
            if let maxPlayers, !(1...8).contains(maxPlayers) { throw bad("\"max_players\" must be 1…8.") }
            let maxSpectators = try optionalInt("max_spectators")
            if let maxSpectators, !(0...16).contains(maxSpectators) { throw bad("\"max_spectators\" must be 0…16.") }
            var assignment: String?
            if let value = json["assignment"], !value.isNull {
                guard let text = value.string, text.utf8.count == 36, let id = UUID(uuidString: text) else {
                    throw ProtocolError(.badAssignment, "\"assignment\" must be the id of work your teacher set, as GET /api/players/{name}/assignments gives it.",
                                        request: kind.rawValue)
                }
                assignment = id.uuidString.lowercased()
            }
            return .createRoom(game: game, mode: mode, maxPlayers: maxPlayers, maxSpectators: maxSpectators, fish: try fish(),
                               level: try level(), assignment: assignment)
        case .joinRoom:
            return .joinRoom(code: try string("code"), fish: try fish())
        case .leaveRoom:
            return .leaveRoom
        case .ready:
            guard let flag = json["ready"]?.bool else { throw bad("\"ready\" must be true or false.") }
            return .ready(flag)
        case .start:
            return .start
        case .rematch:
            return .rematch
        case .points:
            let question = try questionID()
            let stroke = try strokeNumber()
            guard let raw = json["points"]?.array else { throw bad("\"points\" must be an array of [x, y, t].") }
            var points: [StrokePoint] = []
            points.reserveCapacity(raw.count)
            for item in raw {
                // Numbers only; an infinite one (1e999) is read and refused
                // later as out of range, with that reason.
                guard let triple = item.array, (2...3).contains(triple.count),
                      let x = triple[0].number, let y = triple[1].number,
                      let t = triple.count == 3 ? triple[2].number : 0 else {
                    throw bad("Each point must be [x, y] or [x, y, t] with numbers.")
                }
                points.append(StrokePoint(x: x, y: y, t: t))
            }
            return .points(question: question, stroke: stroke, points: points)
        case .clear:
            return .clear(question: try questionID())
        case .undo:
            return .undo(question: try questionID(), stroke: try strokeNumber())
        case .submit:
            let answer = json["answer"]
            return .submit(question: try questionID(), answer: answer?.isNull == true ? nil : answer)
        case .choose:
            let question = try questionID()
            guard let answer = json["answer"], !answer.isNull else {
                throw bad("\"answer\" must be the digit or number picked, such as 7 or \"3740\".")
            }
            return .choose(question: question, answer: answer)
        case .reading:
            let learn = json["learn"], forget = json["forget"]
            guard learn == nil || learn?.isNull == true || learn?.bool != nil,
                  forget == nil || forget?.isNull == true || forget?.bool != nil else {
                throw bad("\"learn\" and \"forget\" must be true or false.")
            }
            return .reading(learn: learn?.bool, forget: forget?.bool ?? false)
        case .hostLesson:
            let token = try string("token")
            guard !token.isEmpty, token.utf8.count <= 256 else { throw bad("\"token\" must be the teacher's token.") }
            let classID = try string("class")
            guard classID.utf8.count == 36, let uuid = UUID(uuidString: classID) else {
                throw bad("\"class\" must be the id of one of your classes, as GET /api/classes gives it.")
            }
            guard let mode = GameMode(rawValue: try string("mode")) else {
                throw bad("\"mode\" must be \"normal\", \"survival\" or \"time_attack\".")
            }
            return .hostLesson(token: token, classID: uuid.uuidString.lowercased(), game: try optionalString("game") ?? GameRegistry.defaultGame,
                               mode: mode, level: try level())
        case .lesson:
            let known = ClientMessage.LessonAction.allCases.map(\.rawValue).joined(separator: ", ")
            guard let action = ClientMessage.LessonAction(rawValue: try string("action")) else {
                throw bad("\"action\" must be one of \(known).")
            }
            let player = try optionalString("player")
            if action == .kick, player == nil { throw bad("\"kick\" needs \"player\", the pupil's player_id.") }
            return .lesson(action, player: player)
        }
    }

    private func bad(_ message: String) -> ProtocolError {
        ProtocolError(.badMessage, message, request: kind.rawValue)
    }

    private func string(_ key: String) throws(ProtocolError) -> String {
        guard let s = json[key]?.string else { throw bad("\"\(key)\" must be a string.") }
        return s
    }

    private func optionalString(_ key: String) throws(ProtocolError) -> String? {
        guard let value = json[key], !value.isNull else { return nil }
        guard let s = value.string else { throw bad("\"\(key)\" must be a string.") }
        return s
    }

    private func optionalInt(_ key: String) throws(ProtocolError) -> Int? {
        guard let value = json[key], !value.isNull else { return nil }
        guard let i = value.integer, abs(i) < 1_000_000_000 else { throw bad("\"\(key)\" must be an integer.") }
        return i
    }

    /// The optional `level`: an integer (whether the game has it is the hub's check).
    private func level() throws(ProtocolError) -> Int? {
        guard let value = json["level"], !value.isNull else { return nil }
        guard let level = value.integer, abs(level) < 1_000_000 else {
            throw ProtocolError(.badLevel, "\"level\" must be a level number such as 1.", request: kind.rawValue)
        }
        return level
    }

    /// The optional `fish`: a fish's id as the fish API gave it (a UUID).
    private func fish() throws(ProtocolError) -> UUID? {
        guard let value = json["fish"], !value.isNull else { return nil }
        guard let text = value.string, text.utf8.count == 36, let id = UUID(uuidString: text) else {
            throw ProtocolError(.badFish, "\"fish\" must be the id of one of your fish, such as \"3f2b8c1e-6a4d-4e0b-9a57-1c2d3e4f5a6b\".",
                                request: kind.rawValue)
        }
        return id
    }

    private func strokeNumber() throws(ProtocolError) -> Int {
        guard let stroke = try optionalInt("stroke"), stroke >= 0 else {
            throw bad("\"stroke\" must be a stroke number, 0 or more.")
        }
        return stroke
    }

    private func questionID() throws(ProtocolError) -> QuestionID {
        guard let text = json["question"]?.string, let id = QuestionID(wire: text) else {
            throw bad("\"question\" must be a question id such as \"r1q0\", as sent in \"question\".")
        }
        return id
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

/// The client-message decoder as a public entry point, for tools outside
/// the server (the `wirebench` benchmark, fuzzers).
public enum ClientMessageDecoder {
    /// Every client message type, as the protocol names them.
    public static var kinds: [String] { ClientMessage.Kind.allCases.map(\.rawValue) }

    /// Decodes one text message exactly as the hub does; returns the
    /// message's type, or the error code it would be refused with, and for
    /// `points` how many points it carried.
    public static func decode(_ text: String) -> (type: String, points: Int) {
        switch ClientMessage.decode(text) {
        case .success(.points(_, _, let points)): ("points", points.count)
        case .success(let message): (message.type, 0)
        case .failure(let error): (error.code.rawValue, 0)
        }
    }
}
