import MindPadHTTP
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

    /// A returning player identified here: claims their session (migration
    /// 0017: the claim's generation counts up in commit order, and the same
    /// statement announces it), then admits the session unless a newer
    /// claim is known by then. A database that does not answer is
    /// `unavailable`: nothing is admitted, the player tries again.
    func claimSession(_ session: Session, _ player: Session.Player) {
        guard let cluster else { return }
        let connection = session.connection, account = player.accountID
        session.claiming = account
        claiming[account, default: []].insert(connection)
        cluster.claimSession(account: account) { [weak self] result in
            guard let self else { return }
            self.transport.post { self.claimed(connection, player, result) }
        }
    }

    private func claimed(_ connection: ConnectionID, _ player: Session.Player, _ result: Result<Int64, PostgresError>) {
        let account = player.accountID
        defer { forgetClaimIfUnused(account) }
        guard let session = sessions[connection], case .identifying = session.state, session.claiming == account else { return }
        stopClaiming(account, connection)
        switch result {
        case .failure:
            session.state = .unidentified
            reply(session, ProtocolError(.unavailable, "Players cannot be checked right now; try again in a moment.",
                                         request: ClientMessage.Kind.identify.rawValue))
        case .success(let generation):
            // Overtaken while the answer was on its way: a newer claim of
            // this player committed after this one (heard already, whatever
            // order the announcements and this answer came in).
            if let newest = sessionClaims[account], newest > generation {
                logger.info("identify overtaken by a newer session", metadata: ["player": "\(player.id.rawValue)"])
                session.state = .closing(nil)
                return replace(connection)
            }
            sessionClaims[account] = generation
            session.claim = generation
            admit(session, player, token: nil)
        }
    }

    func stopClaiming(_ account: Int64, _ connection: ConnectionID) {
        sessions[connection]?.claiming = nil
        claiming[account]?.remove(connection)
        if claiming[account]?.isEmpty == true { claiming[account] = nil }
    }

    /// Keeps an account's newest claim only while a session of it is here.
    func forgetClaimIfUnused(_ account: Int64) {
        guard claiming[account] == nil, online[PlayerID("p\(account)")] == nil else { return }
        sessionClaims[account] = nil
    }

    /// Heard on `mindpad_session` (any thread): `account` was claimed by
    /// `instance` with `generation` (nil: announced by an instance of a
    /// version before claims).
    public func sessionAnnounced(account: Int64, instance: String, generation: Int64?) {
        transport.post { [weak self] in self?.heard(account: account, instance: instance, generation: generation) }
    }

    /// A claim of `generation` is known (announced, or read after the
    /// listener reconnected): the session here goes if its claim is older,
    /// exactly as a second connection here would take over (`replaced`,
    /// 4001), except that no connection here takes over: a player in a room
    /// is disconnected (the grace runs). A session still waiting for its own
    /// claim compares when that answer comes (`claimed`). The order of
    /// announcements and answers does not matter: generations only grow.
    func heard(account: Int64, instance: String, generation: Int64?) {
        guard let cluster else { return }
        let id = PlayerID("p\(account)")
        let connection = online[id]
        guard connection != nil || claiming[account] != nil else { return }   // nothing of theirs here
        guard let generation else {
            // An older version's announcement: newer than any session here.
            guard instance != cluster.instance, let connection else { return }
            return replace(connection, by: instance)
        }
        sessionClaims[account] = max(sessionClaims[account] ?? 0, generation)
        guard let connection, let session = sessions[connection], session.claim < generation else { return }
        replace(connection, by: instance)
    }

    /// Closes `connection`'s session: its player signed in elsewhere.
    private func replace(_ connection: ConnectionID, by instance: String? = nil) {
        guard let session = sessions[connection] else { return }
        if let player = session.player {
            logger.info("session replaced on another instance", metadata: ["player": "\(player.id.rawValue)",
                                                                            "instance": "\(instance ?? "-")"])
            session.state = .closing(player)
        }
        send(ServerMessage.error(ProtocolError(.replaced, "You signed in on another connection.")), toConnection: connection)
        transport.close(connection, code: 4001, reason: "signed in elsewhere")
    }

    /// The listener connected again (any thread): announcements made
    /// meanwhile were never heard, so the latest claim of every player
    /// with a session here is read from the database and acted on.
    public func sessionChannelRelistened() {
        transport.post { [weak self] in self?.recheckClaims() }
    }

    private func recheckClaims() {
        guard let cluster else { return }
        let accounts = Set(online.values.compactMap { sessions[$0]?.player?.accountID }).union(claiming.keys)
        guard !accounts.isEmpty else { return }
        cluster.sessionGenerations(accounts: Array(accounts)) { [weak self] result in
            guard let self else { return }
            self.transport.post {
                switch result {
                case .success(let latest):
                    for (account, generation) in latest {
                        self.heard(account: account, instance: "-", generation: generation)
                    }
                case .failure(let error):
                    self.logger.warning("session claims not rechecked after the listener reconnected", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
