/// Why an event was refused. Sent only to the member who caused it;
/// `description` is safe to show them, `code` is stable for clients.
public enum RaceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The room was disposed (its last member left).
    case roomClosed
    /// This id is already a member of the room.
    case alreadyInRoom
    /// Someone in the room has this name, ignoring case.
    case nameTaken(PlayerName)
    /// Every seat and every spectator place is taken.
    case roomFull(maxPlayers: Int, maxSpectators: Int)
    /// This id is not a member (never joined, left, or its grace ran out).
    case notInRoom
    /// Only the host may start or call a rematch.
    case notHost
    /// Ready flags and starting belong to the lobby.
    case notInLobby
    /// Fewer racers than the room needs.
    case notEnoughPlayers(minimum: Int)
    /// `requireReady` is on and these racers are not ready or not connected.
    case playersNotReady([PlayerName])
    /// An answer before the race started.
    case raceNotRunning
    /// An answer after the race ended.
    case raceOver
    /// A spectator answered.
    case notRacing
    /// The racer's run is over (Normal: all questions; Survival: a miss).
    case alreadyFinished
    /// An answer to a question the racer already answered, or from an
    /// earlier round. `current` is the question they should answer.
    case staleQuestion(QuestionID, current: QuestionID)
    /// An answer to a question the racer was never sent.
    case unsentQuestion(QuestionID, current: QuestionID)
    /// A rematch before the race finished.
    case raceNotFinished
    /// An input the question cannot take as it stands (the path finder: a
    /// move off the grid, a tap on a cell not next to the robot, a move
    /// before the grid is guessed). Not counted; nothing changed. The text
    /// says what was wrong, for the racer.
    case illegalMove(String)
    /// An answer sent as it is (tapped or typed, not read from a drawing)
    /// that a rule of the game forbids as an answer to the question as it
    /// stands (`GameKind.refusal(of:to:attempt:drawn:)`): a kids' value that
    /// is none of the options, a guess of the grid whose rows or columns are
    /// not 1 to 9. Not counted; nothing changed. The text says what is allowed.
    case badAnswer(String)
    /// A lesson's race is paused by the teacher: nothing is answered until
    /// it goes on.
    case paused
    /// `conduct` in a room no teacher conducts.
    case notALesson

    public var code: String {
        switch self {
        case .roomClosed: "room_closed"
        case .alreadyInRoom: "already_in_room"
        case .nameTaken: "name_taken"
        case .roomFull: "room_full"
        case .notInRoom: "not_in_room"
        case .notHost: "not_host"
        case .notInLobby: "not_in_lobby"
        case .notEnoughPlayers: "not_enough_players"
        case .playersNotReady: "players_not_ready"
        case .raceNotRunning: "race_not_running"
        case .raceOver: "race_over"
        case .notRacing: "not_racing"
        case .alreadyFinished: "already_finished"
        case .staleQuestion: "stale_question"
        case .unsentQuestion: "unsent_question"
        case .raceNotFinished: "race_not_finished"
        case .illegalMove: "illegal_move"
        case .badAnswer: "bad_answer"
        case .paused: "paused"
        case .notALesson: "not_a_lesson"
        }
    }

    public var description: String {
        switch self {
        case .roomClosed:
            return "This room is closed."
        case .alreadyInRoom:
            return "You are already in this room."
        case .nameTaken(let name):
            return "Someone in this room is already called \(name.display)."
        case .roomFull(let maxPlayers, let maxSpectators):
            return "This room is full (\(maxPlayers) racers and \(maxSpectators) spectators)."
        case .notInRoom:
            return "You are not in this room."
        case .notHost:
            return "Only the host can do that."
        case .notInLobby:
            return "That is only possible in the lobby, before the race starts."
        case .notEnoughPlayers(let minimum):
            return "At least \(minimum) racers are needed to start."
        case .playersNotReady(let names):
            return "Waiting for: \(names.map(\.display).joined(separator: ", "))."
        case .raceNotRunning:
            return "The race has not started yet."
        case .raceOver:
            return "The race is over; that answer came too late."
        case .notRacing:
            return "Spectators cannot answer."
        case .alreadyFinished:
            return "You have already finished this race."
        case .staleQuestion(_, let current):
            return "That answer is for an earlier question; answer question \(current.index + 1) instead."
        case .unsentQuestion(_, let current):
            return "That question has not been sent yet; answer question \(current.index + 1) instead."
        case .raceNotFinished:
            return "A rematch is only possible after the race has finished."
        case .illegalMove(let message), .badAnswer(let message):
            return message
        case .paused:
            return "Your teacher paused the race; it goes on when they say."
        case .notALesson:
            return "Only a lesson's room is conducted by a teacher."

        }
    }
}
