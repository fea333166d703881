import Foundation
import MindPadRules
import MindPadStorage

/// A solo room playing work a teacher set for the player's class (issue 46,
/// item 3): its race is kept with the class (its reports), its result off
/// the public boards unless the class allows them.
struct AssignmentRoom: Sendable {
    let classID: String
    let assignmentID: String
    let publicBoards: Bool
}

extension RealtimeHub {
    /// `create_room` with `assignment`: a pupil let into the assignment's
    /// class plays it alone, at the game, mode and level the teacher set
    /// (no level lock: the teacher chose it).
    func playAssignment(_ id: String, game: String, mode: GameMode, level: Int?, fish: UUID?, for player: Session.Player,
                        session: Session) {
        let request = ClientMessage.Kind.createRoom.rawValue
        if let code = memberships[player.id] {
            return reply(session, ProtocolError(.alreadyInRoom, "You are already in room \(code); leave it first.", request: request))
        }
        guard let directory = lessonDirectory else {
            return reply(session, ProtocolError(.unavailable, "Classes are not available on this server.", request: request))
        }
        let connection = session.connection
        directory.assignment(id: id, playerID: player.accountID) { [weak self] result in
            guard let self else { return }
            self.transport.post {
                guard let session = self.sessions[connection], session.player?.id == player.id else { return }
                switch result {
                case .failure(let error):
                    self.logger.warning("assignment lookup failed", metadata: ["error": "\(error)"])
                    self.reply(session, ProtocolError(.unavailable, "Your class's work could not be checked; try again.", request: request))
                case .success(nil):
                    self.reply(session, ProtocolError(.notInClass, "That work is for a class you are not in, or not let into yet.", request: request))
                case .success(let found?):
                    let record = found.record
                    guard let entry = self.games.entry(record.game), let setMode = GameMode(rawValue: record.mode),
                          entry.info.modes.contains(setMode) else {
                        return self.reply(session, ProtocolError(.badAssignment, "This server no longer hosts that game.", request: request))
                    }
                    let setLevel = entry.info.levels.isEmpty ? nil : record.level ?? 1
                    guard record.game == game, setMode == mode, level == nil || level == setLevel else {
                        return self.reply(session, ProtocolError(.badAssignment,
                            "That work is \(entry.info.names.en) in \(record.mode)\(setLevel.map { ", level \($0)" } ?? ""); ask for that.",
                            request: request))
                    }
                    if fish != nil, !entry.info.playsWithFish {
                        return self.reply(session, ProtocolError(.badFish, "\(entry.info.names.en) is not played with a fish; send \"fish\" only to a fish game.", request: request))
                    }
                    self.openRoom(game: entry, mode: setMode, maxPlayers: 1, maxSpectators: 0, fish: fish, level: setLevel,
                                  for: player, session: session,
                                  assignment: AssignmentRoom(classID: record.classID, assignmentID: record.id,
                                                             publicBoards: found.publicBoards))
                }
            }
        }
    }
}
