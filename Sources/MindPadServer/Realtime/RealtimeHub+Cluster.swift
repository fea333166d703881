import MindPadRules
import MindPadStorage

/// Cluster mode (`MINDPAD_INSTANCE`, `cluster` set): room codes are reserved
/// in the database's room directory, a code not open here is looked up
/// there (`moved`, `room_lost`), and a player identifying anywhere replaces
/// their session everywhere else (`NOTIFY mindpad_session`).
/// docs/architecture.md, "Cluster"; docs/protocol.md.
extension RealtimeHub {
    /// Draws codes until the directory takes one for this instance (a live
    /// instance may hold a code: draw again), then `open`s the room. A
    /// database that does not answer is `unavailable`; nothing was opened.
    func reserveRoom(game: String, for player: Session.Player, session: Session, attempt: Int = 0,
                     open: @escaping (String) -> Void) {
        guard let cluster else { return }
        let request = ClientMessage.Kind.createRoom.rawValue
        // 4 letters first, 5 after three refusals, 6 after six: a crowded
        // directory (20^4 = 160,000 codes cluster-wide) never runs out.
        let code = RoomCode.make(avoiding: { rooms[$0] != nil }, shortest: 4 + attempt / 3, using: &random)
        let connection = session.connection
        let later = UncheckedBox(open)
        cluster.reserve(code: code, game: game) { [weak self] result in
            guard let self else { return }
            self.transport.post {
                let reserved = (try? result.get()) == true
                // The asker may have gone, or changed things, meanwhile.
                guard let session = self.sessions[connection], session.player?.id == player.id else {
                    if reserved { cluster.release(code: code) }
                    return
                }
                switch result {
                case .success(true):
                    if let refusal = self.refusalAfterReserving(player) {
                        cluster.release(code: code)
                        return self.reply(session, refusal)
                    }
                    later.value(code)
                case .success(false) where attempt < 8:
                    self.reserveRoom(game: game, for: player, session: session, attempt: attempt + 1, open: later.value)
                case .success(false), .failure:
                    if case .failure(let error) = result {
                        self.logger.warning("room code not reserved", metadata: ["error": "\(error)"])
                    }
                    self.reply(session, ProtocolError(.unavailable, "Rooms cannot be opened right now; try again in a moment.",
                                                      request: request))
                }
            }
        }
    }

    /// What changed while the code was being reserved and now refuses the
    /// room; nil when it may open.
    private func refusalAfterReserving(_ player: Session.Player) -> OutgoingMessage? {
        let request = ClientMessage.Kind.createRoom.rawValue
        if let code = memberships[player.id] {
            return ServerMessage.error(ProtocolError(.alreadyInRoom, "You are already in room \(code); leave it first.", request: request))
        }
        if drain != nil { return ServerMessage.moved(room: nil, instance: nil) }
        if rooms.count >= options.maxRooms {
            return ServerMessage.error(ProtocolError(.serverFull, "No more rooms can be opened right now; try again later.", request: request))
        }
        return nil
    }

    /// `join_room` of a code not open here: the directory says where it is.
    /// - another live instance, not the one this connection asked for:
    ///   `moved` there;
    /// - a dead instance, this instance (a process of this id before the
    ///   restart), or the instance the connection asked for (HAProxy could
    ///   not reach it and sent the client here): `room_lost`;
    /// - nowhere: `room_not_found`.
    func findRoom(_ code: String, for player: Session.Player, session: Session) {
        guard let cluster else { return }
        let connection = session.connection
        cluster.lookup(code: code) { [weak self] result in
            guard let self else { return }
            self.transport.post {
                guard let session = self.sessions[connection], session.player?.id == player.id else { return }
                self.reply(session, Self.answer(toJoining: code, result, here: cluster.instance,
                                                asked: session.requestedInstance))
            }
        }
    }

    /// The reply to joining `code` when the directory answered `result`.
    static func answer(toJoining code: String, _ result: Result<RoomDirectoryEntry?, PostgresError>, here: String,
                       asked: String?) -> OutgoingMessage {
        let request = ClientMessage.Kind.joinRoom.rawValue
        let lost = ServerMessage.error(ProtocolError(.roomLost, "The server running room \(code) went away; its race is over.",
                                                     request: request))
        switch result {
        case .failure:
            return ServerMessage.error(ProtocolError(.unavailable, "Rooms cannot be found right now; try again in a moment.",
                                                     request: request))
        case .success(nil):
            return ServerMessage.error(ProtocolError(.roomNotFound, "There is no room with that code.", request: request))
        case .success(let entry?):
            if !entry.alive || entry.instance == here || entry.instance == asked { return lost }
            return ServerMessage.moved(room: code, instance: entry.instance)
        }
    }

    // MARK: One session per player, cluster-wide

    /// Heard on `mindpad_session` (any thread): `account` identified on
    /// `instance`.
    public func sessionAnnounced(account: Int64, instance: String) {
        transport.post { [weak self] in self?.heard(account: account, instance: instance) }
    }

    /// An announcement of another instance is older than this instance's
    /// latest one for the same player while that one is not heard back:
    /// PostgreSQL delivers notifications in commit order, and this
    /// instance answers `identified` only after its own committed. Such a
    /// stale one is ignored; a newer one replaces the session here exactly
    /// as a second connection here would (`replaced`, 4001), except that
    /// no connection here takes over: a player in a room is disconnected
    /// (the grace runs).
    private func heard(account: Int64, instance: String) {
        guard let cluster else { return }
        if instance == cluster.instance { return heardOwnAnnouncement(account: account) }
        guard unheardAnnouncements[account, default: 0] == 0 else { return }
        let id = PlayerID("p\(account)")
        guard let connection = online[id], let session = sessions[connection], let player = session.player else { return }
        logger.info("session replaced on another instance", metadata: ["player": "\(id.rawValue)", "instance": "\(instance)"])
        session.state = .closing(player)
        send(ServerMessage.error(ProtocolError(.replaced, "You signed in on another connection.")), toConnection: connection)
        transport.close(connection, code: 4001, reason: "signed in elsewhere")
    }

    /// The listener connected again (any thread): this instance's own
    /// announcements made meanwhile will never be heard back, so none is
    /// waited for any more.
    public func sessionChannelRelistened() {
        transport.post { [weak self] in self?.unheardAnnouncements = [:] }
    }

    func heardOwnAnnouncement(account: Int64) {
        guard let left = unheardAnnouncements[account] else { return }
        unheardAnnouncements[account] = left > 1 ? left - 1 : nil
    }
}
