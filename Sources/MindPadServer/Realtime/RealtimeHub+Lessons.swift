import Foundation
import MindPadHTTP
import MindPadRecognition
import MindPadRules
import MindPadTransport

/// A lesson on this instance (issue 46): a room of one class that its
/// teacher conducts from a projector, which is no member of it.
struct Lesson {
    let classID: String
    let className: String
    let teacherID: Int64
    /// Its results may enter the public boards (the class's setting when
    /// the lesson opened); else they are stored off them.
    let publicBoards: Bool
    /// The teacher's projector, while connected.
    var conductor: ConnectionID?
    /// Nobody new may join (pupils who were in the lesson come back).
    var locked = false
    /// Pupils the teacher took out: they cannot come back to this lesson.
    var kicked: [PlayerID: String] = [:]
    /// Pupils who have been in the lesson.
    var seen: Set<PlayerID> = []
    /// Ends the lesson if the projector stays away too long.
    var awayTimer: TimerToken?
}

/// Lessons: a teacher's projector opens a room for their class
/// (`host_lesson`), conducts it (`lesson`) and sees every pupil's pad live
/// (`pad_*`); only the class's pupils join it. docs/protocol.md "Lessons".
extension RealtimeHub {
    func hostLesson(_ session: Session, token: String, classID: String, game identifier: String, mode: GameMode, level: Int?) {
        let request = ClientMessage.Kind.hostLesson.rawValue
        switch session.state {
        case .unidentified: break
        case .identifying, .identified, .closing:
            return reply(session, ProtocolError(.alreadyIdentified, "A teacher's projector connects on a connection of its own, not a player's.", request: request))
        }
        if conducting[session.connection] != nil {
            return reply(session, ProtocolError(.alreadyInRoom, "This connection conducts a lesson already; end it first.", request: request))
        }
        let game: GameRegistry.Entry
        switch hostedGame(identifier, mode: mode, request: request) {
        case .success(let entry): game = entry
        case .failure(let refusal): return reply(session, refusal)
        }
        if let refusal = Self.levelRefusal(level, game: game.info, request: request) { return reply(session, refusal) }
        guard let directory = lessonDirectory else {
            return reply(session, ProtocolError(.unavailable, "Lessons are not available on this server.", request: request))
        }
        let connection = session.connection
        directory.lessonClass(token: token, classID: classID) { [weak self] result in
            guard let self else { return }
            self.transport.post {
                guard let session = self.sessions[connection], !session.isClosing, session.player == nil,
                      self.conducting[connection] == nil else { return }
                switch result {
                case .failure(let error):
                    self.logger.warning("lesson class lookup failed", metadata: ["error": "\(error)"])
                    self.reply(session, ProtocolError(.unavailable, "The class could not be looked up; try again.", request: request))
                case .success(nil):
                    self.reply(session, ProtocolError(.classNotFound, "No class of yours has that id; sign in again.", request: request))
                case .success(let found?):
                    self.openLesson(found, game: game, mode: mode, level: level, session: session)
                }
            }
        }
    }

    /// Opens the class's lesson, or hands the one already open here to this
    /// projector (a refresh, a second screen): one lesson per class.
    private func openLesson(_ found: LessonClass, game: GameRegistry.Entry, mode: GameMode, level: Int?, session: Session) {
        let request = ClientMessage.Kind.hostLesson.rawValue
        if let code = lessons.first(where: { $0.value.classID == found.classID })?.key, let room = rooms[code] {
            return conduct(code, room: room, from: session)
        }
        guard rooms.count < options.maxRooms else {
            return reply(session, ProtocolError(.serverFull, "No more rooms can be opened right now; try again later.", request: request))
        }
        if let refusal = drainRefusal(request: request) { return reply(session, refusal) }
        let open = { [unowned self] (code: String) in
            var configuration = options.raceConfiguration(mode: mode, maxPlayers: RealtimeOptions.lessonSeats,
                                                          maxSpectators: RealtimeOptions.lessonSeats)
            configuration.requireReady = false
            configuration.conducted = true
            configuration.level = game.info.levels.isEmpty ? nil : level ?? 1
            let seed = UInt64.random(in: .min ... .max, using: &random)
            let settings = RoomSettings(progressInterval: options.progressInterval, logger: logger, lesson: found.name)
            let room = game.openRoom(code, configuration, seed, transport.now, settings)
            rooms[code] = room
            lessons[code] = Lesson(classID: found.classID, className: found.name, teacherID: found.teacherID,
                                   publicBoards: found.publicBoards)
            // The class's pupils find it without its code (GET /api/players/{name}/classes).
            lessonDirectory?.lessonNow(classID: found.classID, room: code, ended: nil, instance: cluster?.instance)
            logger.info("lesson opened", metadata: ["room": "\(code)", "game": "\(game.info.identifier)", "mode": "\(mode.rawValue)",
                                                    "conn": "\(session.connection)"])
            conduct(code, room: room, from: session)
        }
        guard let cluster else { return open(RoomCode.make(avoiding: { rooms[$0] != nil }, using: &random)) }
        reserveLessonRoom(game: game.info.identifier, cluster: cluster, connection: session.connection, attempt: 0, open: open)
    }

    private func reserveLessonRoom(game: String, cluster: ClusterMembership, connection: ConnectionID, attempt: Int,
                                   open: @escaping (String) -> Void) {
        let code = RoomCode.make(avoiding: { rooms[$0] != nil }, shortest: 4 + attempt / 3, using: &random)
        let later = UncheckedBox(open)
        cluster.reserve(code: code, game: game) { [weak self] result in
            guard let self else { return }
            self.transport.post {
                let reserved = (try? result.get()) == true
                guard let session = self.sessions[connection], !session.isClosing, self.conducting[connection] == nil else {
                    if reserved { cluster.release(code: code) }
                    return
                }
                switch result {
                case .success(true): later.value(code)
                case .success(false) where attempt < 8:
                    self.reserveLessonRoom(game: game, cluster: cluster, connection: connection, attempt: attempt + 1, open: later.value)
                case .success(false), .failure:
                    self.reply(session, ProtocolError(.unavailable, "No room could be opened for the lesson; try again.",
                                                      request: ClientMessage.Kind.hostLesson.rawValue))
                }
            }
        }
    }

    /// `session`'s projector conducts the lesson in room `code` from now:
    /// a projector there before is told it was replaced. It hears the
    /// lesson, the room, every racer's question and each pad as it stands.
    private func conduct(_ code: String, room: any GameRoom, from session: Session) {
        guard var lesson = lessons[code] else { return }
        if let before = lesson.conductor, before != session.connection, let old = sessions[before] {
            conducting[before] = nil
            reply(old, ProtocolError(.replaced, "This lesson is on another screen now."))
            old.state = .closing(nil)
            transport.close(before, code: 4001, reason: "replaced")
        }
        transport.cancel(lesson.awayTimer)
        lesson.awayTimer = nil
        lesson.conductor = session.connection
        lessons[code] = lesson
        conducting[session.connection] = code
        reply(session, lessonMessage(code))
        perform(room.conductorPicture(at: transport.now), for: room)
        // Each pad as it stands.
        for member in room.snapshot.members {
            guard let connection = online[member.id], let pupil = sessions[connection],
                  let question = pupil.drawing.question else { continue }
            for (index, stroke) in pupil.drawing.strokes.enumerated() {
                reply(session, ServerMessage.padPoints(player: member.id, question: question, stroke: index, points: stroke))
            }
        }
    }

    private func lessonMessage(_ code: String) -> OutgoingMessage {
        let lesson = lessons[code]
        return ServerMessage.lesson(code: code, instance: cluster?.instance, classID: lesson?.classID ?? "", className: lesson?.className ?? "",
                                    locked: lesson?.locked ?? false, kicked: (lesson?.kicked.values).map { $0.sorted() } ?? [])
    }

    /// A `lesson` message from a connection: only the projector
    /// conducting a lesson may send it.
    func conductLesson(_ action: ClientMessage.LessonAction, player: String?, session: Session) {
        let request = ClientMessage.Kind.lesson.rawValue
        guard let code = conducting[session.connection], let room = rooms[code], lessons[code] != nil else {
            return reply(session, ProtocolError(.notConducting, "This connection conducts no lesson; send \"host_lesson\" first.", request: request))
        }
        switch action {
        case .start:
            if let refusal = drainRefusal(request: request) { return reply(session, refusal) }
            feed(room, .conduct(.start), request: request)
        case .pause: feed(room, .conduct(.pause), request: request)
        case .resume: feed(room, .conduct(.resume), request: request)
        case .stop: feed(room, .conduct(.stop), request: request)
        case .next:
            if let refusal = drainRefusal(request: request) { return reply(session, refusal) }
            feed(room, .conduct(.nextRound(seed: UInt64.random(in: .min ... .max, using: &random))), request: request)
        case .lock, .unlock:
            lessons[code]?.locked = action == .lock
            reply(session, lessonMessage(code))
        case .kick:
            let id = PlayerID(player ?? "")
            guard let member = room.snapshot.members.first(where: { $0.id == id }) else {
                return reply(session, ProtocolError(.notInRoom, "No pupil \(ClientMessage.printable(player ?? "")) is in this lesson.", request: request))
            }
            lessons[code]?.kicked[id] = member.name.display
            takeOut(id, from: room, because: ProtocolError(.kicked, "Your teacher took you out of this lesson.", request: request))
            reply(session, lessonMessage(code))
        case .end:
            endLesson(code, request: request)
        }
    }

    /// A member leaves the lesson's room because the teacher said so: told
    /// why, their run so far stored, then `left_room` as after their own
    /// `leave_room`. A member away (within the grace) just leaves.
    private func takeOut(_ id: PlayerID, from room: any GameRoom, because reason: ProtocolError) {
        if let connection = online[id], let session = sessions[connection], let player = session.player,
           memberships[id] == room.code {
            reply(session, reason)
            leave(room, player: player, session: session, request: reason.request ?? "lesson")
        } else {
            feed(room, .leave(id), request: nil)
        }
    }

    /// The lesson is over: every pupil taken out (their runs stored), the
    /// room closed, the projector told.
    func endLesson(_ code: String, request: String? = nil) {
        guard lessons[code] != nil else { return }
        if let room = rooms[code] {
            for member in room.snapshot.members {
                takeOut(member.id, from: room, because: ProtocolError(.lessonEnded, "The lesson is over.", request: request))
            }
            // The room closes: its disposal ends the lesson (`lessonRoomDisposed`).
            feed(room, .conduct(.close), request: request)
        }
        lessonRoomDisposed(code)
        logger.info("lesson ended", metadata: ["room": "\(code)"])
    }

    /// The projector's connection closed: the lesson goes on without it
    /// and waits for it (`lessonAwayLimit`), then ends.
    func conductorLeft(_ connection: ConnectionID) {
        guard let code = conducting.removeValue(forKey: connection), var lesson = lessons[code],
              lesson.conductor == connection else { return }
        lesson.conductor = nil
        lesson.awayTimer = transport.schedule(at: transport.now + options.lessonAwayLimit) { [weak self] in
            guard let self, self.lessons[code]?.conductor == nil else { return }
            self.lessons[code]?.awayTimer = nil
            self.endLesson(code)
        }
        lessons[code] = lesson
    }

    /// `join_room` of a lesson's room: a pupil the teacher let into the
    /// class, not taken out of this lesson, and, once it is locked, one
    /// who was in it before.
    func joinLesson(_ room: any GameRoom, player: Session.Player, session: Session) {
        let request = ClientMessage.Kind.joinRoom.rawValue
        let code = room.code
        guard let lesson = lessons[code] else { return }
        if lesson.kicked[player.id] != nil {
            return reply(session, ProtocolError(.kicked, "Your teacher took you out of this lesson.", request: request))
        }
        if lesson.locked, !lesson.seen.contains(player.id) {
            return reply(session, ProtocolError(.lessonLocked, "Your teacher closed this lesson to newcomers; ask them to open it.", request: request))
        }
        guard let directory = lessonDirectory else {
            return reply(session, ProtocolError(.unavailable, "Lessons are not available on this server.", request: request))
        }
        let connection = session.connection
        let opened = ObjectIdentifier(room)
        directory.isPupil(classID: lesson.classID, playerID: player.accountID) { [weak self] result in
            guard let self else { return }
            self.transport.post {
                guard let session = self.sessions[connection], session.player?.id == player.id else { return }
                guard let room = self.rooms[code], ObjectIdentifier(room) == opened, self.lessons[code] != nil else {
                    return self.reply(session, ProtocolError(.roomNotFound, "There is no room with that code.", request: request))
                }
                if let other = self.memberships[player.id] {
                    return self.reply(session, ProtocolError(.alreadyInRoom, "You are already in room \(other); leave it first.", request: request))
                }
                switch result {
                case .failure(let error):
                    self.logger.warning("lesson pupil lookup failed", metadata: ["error": "\(error)"])
                    self.reply(session, ProtocolError(.unavailable, "Your class could not be checked; try again.", request: request))
                case .success(false):
                    self.reply(session, ProtocolError(.notInClass, "This is a class's lesson: join the class first with its class code, and wait until your teacher lets you in.", request: request))
                case .success(true):
                    // Taken out or locked out while the database answered.
                    if let refusal = self.lessonRefusal(code, player.id, request: request) { return self.reply(session, refusal) }
                    self.feed(room, .join(player, fish: nil), request: request)
                    if self.memberships[player.id] == code { self.lessons[code]?.seen.insert(player.id) }
                }
            }
        }
    }

    private func lessonRefusal(_ code: String, _ id: PlayerID, request: String) -> ProtocolError? {
        guard let lesson = lessons[code] else { return nil }
        if lesson.kicked[id] != nil { return ProtocolError(.kicked, "Your teacher took you out of this lesson.", request: request) }
        if lesson.locked, !lesson.seen.contains(id) {
            return ProtocolError(.lessonLocked, "Your teacher closed this lesson to newcomers; ask them to open it.", request: request)
        }
        return nil
    }

    /// The projector conducting the lesson `player` is in, if any.
    func conductor(of player: PlayerID) -> ConnectionID? {
        guard !lessons.isEmpty, let code = memberships[player] else { return nil }
        return lessons[code]?.conductor
    }

    /// Tells the projector of `player`'s lesson, if any, `message()`.
    func tellConductor(of player: PlayerID, _ message: () -> OutgoingMessage) {
        guard let connection = conductor(of: player) else { return }
        send(message(), toConnection: connection)
    }

    /// A lesson's round began: the class keeps its race for its reports.
    func lessonRaceBegan(_ race: String, in room: any GameRoom) {
        if let lesson = lessons[room.code] {
            lessonDirectory?.recordRace(classID: lesson.classID, raceID: race, roomID: room.code, game: room.game.identifier,
                                        assignmentID: nil)
        } else if let work = assignmentRooms[room.code] {
            lessonDirectory?.recordRace(classID: work.classID, raceID: race, roomID: room.code, game: room.game.identifier,
                                        assignmentID: work.assignmentID)
        }
    }

    /// A result of `room` stays off the public boards: a class's lesson or
    /// assignment whose teacher did not allow them.
    func keepsOffBoards(_ room: any GameRoom) -> Bool {
        if let lesson = lessons[room.code] { return !lesson.publicBoards }
        if let work = assignmentRooms[room.code] { return !work.publicBoards }
        return false
    }

    /// A lesson's room closed (the teacher ended the lesson, the projector
    /// stayed away, a drain): the lesson goes with it, the class has none
    /// now, and its projector, if still there, is told. Once: a second call
    /// finds no lesson.
    func lessonRoomDisposed(_ code: String) {
        assignmentRooms[code] = nil
        guard let lesson = lessons.removeValue(forKey: code) else { return }
        transport.cancel(lesson.awayTimer)
        lessonDirectory?.lessonNow(classID: lesson.classID, room: nil, ended: code, instance: nil)
        if let conductor = lesson.conductor {
            conducting[conductor] = nil
            send(ServerMessage.lessonEnded(code: code), toConnection: conductor)
        }
    }
}
