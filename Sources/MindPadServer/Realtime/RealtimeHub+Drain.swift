import MindPadHTTP
import MindPadRules

/// Where a drain stands (docs/architecture.md, "Cluster": the drain).
struct DrainProgress {
    /// Racing rooms end by then, or the instance stops anyway.
    let deadline: RaceInstant
    /// Rooms that were racing when the drain began, or had just finished
    /// (their `result_saved` may be on its way), and whose members are not
    /// yet closed.
    var racing: Set<String>
    /// Runs once: every racing room ended (or the bound passed).
    let then: () -> Void
    var done = false
}

/// Draining: no new rooms (`create_room` → `moved` with no instance) and no
/// new races (`start`, `rematch` → `draining`); rooms not racing close at
/// once (error `draining`, close 1012: the client reconnects to plain `/ws`);
/// racing rooms run to their end, their results are stored as usual, and
/// once their `result_saved` went out their members are closed with 1012.
/// Then `then` (the normal stop). Service thread only.
extension RealtimeHub {
    /// How often a drain looks whether its racing rooms ended.
    static let drainCheckInterval: RaceDuration = .milliseconds(200)

    /// Begins draining (again: nothing changes) and returns how many rooms
    /// are racing. `bound`: the longest the races may take.
    @discardableResult
    public func beginDrain(bound: RaceDuration, then: @escaping () -> Void) -> Int {
        if let drain { return drain.racing.count { rooms[$0]?.isRacing == true } }
        let racing = Set(rooms.values.filter { $0.isRacing || $0.snapshot.phase == .finished }.map(\.code))
        drain = DrainProgress(deadline: transport.now + bound, racing: racing, then: then)
        let lobbies = rooms.values.filter { !racing.contains($0.code) }
        for room in lobbies { close(room, sayingDraining: true) }
        logger.notice("draining", metadata: ["racing_rooms": "\(racing.count)", "closed_rooms": "\(lobbies.count)",
                                             "bound_s": "\(bound.milliseconds / 1000)"])
        checkDrain()
        return racing.count { rooms[$0]?.isRacing == true }
    }

    /// Whether the instance is draining.
    public var isDraining: Bool { drain != nil }

    /// `start` and `rematch` while draining.
    func drainRefusal(request: String) -> ProtocolError? {
        guard drain != nil else { return nil }
        return ProtocolError(.draining, "This server is restarting; open or join a room again.", request: request)
    }

    private func checkDrain() {
        guard var progress = drain, !progress.done else { return }
        for code in progress.racing {
            guard let room = rooms[code] else {
                progress.racing.remove(code)
                continue
            }
            // Ended, and every result handed to storage answered.
            if !room.isRacing && pendingSaves == 0 {
                close(room, sayingDraining: false)
                progress.racing.remove(code)
            }
        }
        if progress.racing.isEmpty || transport.now >= progress.deadline {
            progress.done = true
            drain = progress
            if !progress.racing.isEmpty {
                logger.warning("drain bound passed; stopping with races running", metadata: ["rooms": "\(progress.racing.count)"])
            }
            // Everyone not in a room reconnects elsewhere at once; rooms
            // still racing (the bound passed) end with the normal stop.
            for (connection, session) in sessions where !session.isClosing {
                if let player = session.player, memberships[player.id] != nil { continue }
                session.state = .closing(session.player)
                transport.close(connection, code: 1012, reason: "server restarting")
            }
            return progress.then()
        }
        drain = progress
        transport.schedule(at: transport.now + Self.drainCheckInterval) { [weak self] in self?.checkDrain() }
    }

    /// Every member leaves `room` and their connection closes with 1012
    /// (after error `draining` when `sayingDraining`).
    private func close(_ room: any GameRoom, sayingDraining: Bool) {
        // A lesson's projector reconnects elsewhere (plain /ws) and opens
        // the class's lesson anew there; its pupils find it (issue 46).
        if let conductor = lessons[room.code]?.conductor, let session = sessions[conductor], !session.isClosing {
            conducting[conductor] = nil
            lessons[room.code]?.conductor = nil
            send(ServerMessage.error(ProtocolError(.draining, "This server is restarting; open the lesson again.")), toConnection: conductor)
            session.state = .closing(nil)
            transport.close(conductor, code: 1012, reason: "server restarting")
        }
        defer { if lessons[room.code] != nil { feed(room, .conduct(.close), request: nil) } }
        for member in room.snapshot.members {
            let connection = online[member.id]
            feed(room, .leave(member.id), request: nil)
            guard let connection, let session = sessions[connection], !session.isClosing else { continue }
            if sayingDraining {
                send(ServerMessage.error(ProtocolError(.draining, "This server is restarting; open or join a room again.")),
                     toConnection: connection)
            }
            session.state = .closing(session.player)
            transport.close(connection, code: 1012, reason: "server restarting")
        }
    }
}
