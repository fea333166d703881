import MindPadRecognition
import MindPadRules

/// Every error code the WebSocket protocol sends, defined once
/// (`docs/protocol.md`, "Errors", lists them with when each is sent).
enum ProtocolErrorCode: String, Sendable, CaseIterable {
    // Shape of a message.
    case badJSON = "bad_json"
    case badMessage = "bad_message"
    case unknownType = "unknown_type"
    // Identity.
    case notIdentified = "not_identified"
    case alreadyIdentified = "already_identified"
    case nameEmpty = "name_empty"
    case nameTooLong = "name_too_long"
    case nameDisallowedCharacter = "name_disallowed_character"
    case nameTaken = "name_taken"
    case wrongToken = "wrong_token"
    case unavailable
    case replaced
    case rateLimited = "rate_limited"
    // Rooms.
    case roomNotFound = "room_not_found"
    case alreadyInRoom = "already_in_room"
    case notInRoom = "not_in_room"
    case serverFull = "server_full"
    case unknownGame = "unknown_game"
    case modeNotOffered = "mode_not_offered"
    case badFish = "bad_fish"
    case badLevel = "bad_level"
    case levelLocked = "level_locked"
    // Lessons (issue 46).
    case classNotFound = "class_not_found"
    case notConducting = "not_conducting"
    case notInClass = "not_in_class"
    case lessonLocked = "lesson_locked"
    case kicked
    case lessonEnded = "lesson_ended"
    case paused
    case notALesson = "not_a_lesson"
    case badAssignment = "bad_assignment"
    // A cluster of instances.
    case roomLost = "room_lost"
    case draining
    // The race rules (RaceError).
    case roomClosed = "room_closed"
    case roomFull = "room_full"
    case notHost = "not_host"
    case notInLobby = "not_in_lobby"
    case notEnoughPlayers = "not_enough_players"
    case playersNotReady = "players_not_ready"
    case raceNotRunning = "race_not_running"
    case raceOver = "race_over"
    case notRacing = "not_racing"
    case alreadyFinished = "already_finished"
    case staleQuestion = "stale_question"
    case unsentQuestion = "unsent_question"
    case raceNotFinished = "race_not_finished"
    case illegalMove = "illegal_move"
    // Drawing and answering.
    case badStroke = "bad_stroke"
    case tooManyPoints = "too_many_points"
    case tooManyStrokes = "too_many_strokes"
    case coordinateOutOfRange = "coordinate_out_of_range"
    case emptyDrawing = "empty_drawing"
    case unsureDrawing = "unsure_drawing"
    case badChoice = "bad_choice"
    case noChoice = "no_choice"
    case submitPending = "submit_pending"
    case answerNotDrawn = "answer_not_drawn"
    case answerMissing = "answer_missing"
    case badAnswer = "bad_answer"
    case unreadableAnswer = "unreadable_answer"
    case recognitionFailed = "recognition_failed"

    init(_ error: RaceError) {
        switch error {
        case .roomClosed: self = .roomClosed
        case .alreadyInRoom: self = .alreadyInRoom
        case .nameTaken: self = .nameTaken
        case .roomFull: self = .roomFull
        case .notInRoom: self = .notInRoom
        case .notHost: self = .notHost
        case .notInLobby: self = .notInLobby
        case .notEnoughPlayers: self = .notEnoughPlayers
        case .playersNotReady: self = .playersNotReady
        case .raceNotRunning: self = .raceNotRunning
        case .raceOver: self = .raceOver
        case .notRacing: self = .notRacing
        case .alreadyFinished: self = .alreadyFinished
        case .staleQuestion: self = .staleQuestion
        case .unsentQuestion: self = .unsentQuestion
        case .raceNotFinished: self = .raceNotFinished
        case .illegalMove: self = .illegalMove
        case .badAnswer: self = .badAnswer
        case .paused: self = .paused
        case .notALesson: self = .notALesson
        }
    }

    init(_ error: PlayerNameError) {
        switch error {
        case .empty: self = .nameEmpty
        case .tooLong: self = .nameTooLong
        case .disallowedCharacter: self = .nameDisallowedCharacter
        case .taken: self = .nameTaken
        }
    }

    /// What the recognizer refused in a submitted drawing. The shape limits
    /// are checked as the strokes arrive, so these are rare.
    init(_ error: RecognitionError) {
        switch error.code {
        case .emptyDrawing: self = .emptyDrawing
        case .tooManyStrokes: self = .tooManyStrokes
        case .tooManyPoints: self = .tooManyPoints
        case .nonFiniteValue, .coordinateOutOfRange: self = .coordinateOutOfRange
        case .malformedInput, .lineTooLong, .invalidModel: self = .recognitionFailed
        }
    }
}

/// A refusal sent to the client as `{"type":"error","code":…,"message":…,"request":…}`.
struct ProtocolError: Error, Sendable, Equatable {
    let code: ProtocolErrorCode
    /// Safe to show the player.
    let message: String
    /// The `type` of the message that caused it, when known.
    var request: String?

    init(_ code: ProtocolErrorCode, _ message: String, request: String? = nil) {
        self.code = code
        self.message = message
        self.request = request
    }

    init(_ error: RaceError, request: String?) {
        self.init(ProtocolErrorCode(error), error.description, request: request)
    }
}
