import MindPadHTTP
import MindPadRules

/// `identify`: a new name gets a token (once); a returning player proves the
/// name with it. A second connection of the same player takes over: the
/// first is closed with 4001, and a player who was in a room is resumed in it.
/// In a cluster the same holds across instances (`RealtimeHub+Cluster.swift`).
extension RealtimeHub {
    func identify(_ session: Session, name raw: String, token: String?) {
        let request = ClientMessage.Kind.identify.rawValue
        switch session.state {
        case .unidentified: break
        case .identifying, .identified, .closing:
            return reply(session, ProtocolError(.alreadyIdentified, "This connection is already identified.", request: request))
        }
        // A teacher's projector is never a player (`host_lesson`).
        if conducting[session.connection] != nil {
            return reply(session, ProtocolError(.alreadyIdentified, "This connection conducts a lesson; a player connects on their own.",
                                                request: request))
        }
        let name: PlayerName
        do {
            name = try PlayerName(validating: raw)
        } catch {
            return reply(session, ProtocolError(ProtocolErrorCode(error), error.description, request: request))
        }
        if let token, token.isEmpty || token.utf8.count > 256 {
            return reply(session, ProtocolError(.wrongToken, "That token does not belong to this name.", request: request))
        }
        session.state = .identifying
        let connection = session.connection
        let finish: @Sendable (Result<(IdentifiedPlayer, String?), IdentityError>) -> Void = { [weak self] result in
            guard let self else { return }
            self.transport.post { self.identified(connection, requested: name, result: result) }
        }
        if let token {
            players.authenticate(nameKey: name.key, token: token) { result in finish(result.map { ($0, nil) }) }
        } else {
            players.register(name: name.display, nameKey: name.key) { result in finish(result.map { ($0.0, $0.token) }) }
        }
    }

    private func identified(_ connection: ConnectionID, requested: PlayerName,
                            result: Result<(IdentifiedPlayer, String?), IdentityError>) {
        guard let session = sessions[connection], case .identifying = session.state else { return }
        let request = ClientMessage.Kind.identify.rawValue
        switch result {
        case .failure(let error):
            session.state = .unidentified
            switch error {
            case .nameTaken:
                reply(session, ProtocolError(.nameTaken, "\(requested.display) belongs to another player; pick another name, or send its token.", request: request))
            case .wrongToken:
                reply(session, ProtocolError(.wrongToken, "That token does not belong to this name.", request: request))
            case .unavailable:
                reply(session, ProtocolError(.unavailable, "Players cannot be checked right now; try again in a moment.", request: request))
            }
        case .success(let (identified, token)):
            let name = (try? PlayerName(validating: identified.name)) ?? requested
            let player = Session.Player(id: PlayerID("p\(identified.id)"), accountID: identified.id, name: name)
            session.hand = hand(from: identified.hand)
            // In a cluster a returning player's session is claimed first
            // (RealtimeHub+Cluster): `identified` only once the claim
            // committed, and only if no newer claim is known by then. A new
            // player's first session claims nothing: nobody else can hold
            // their token yet.
            guard cluster != nil, token == nil else { return admit(session, player, token: token) }
            claimSession(session, player)
        }
    }

    /// The player is who they said: the session is theirs, an older one
    /// of theirs here goes, and they are resumed in their room.
    func admit(_ session: Session, _ player: Session.Player, token: String?) {
        let request = ClientMessage.Kind.identify.rawValue
        let connection = session.connection
        if let previous = online[player.id], let old = sessions[previous] {
            // The same player on a new socket: the old one goes.
            old.state = .closing(nil)
            handOver(from: old, to: session)
            send(ServerMessage.error(ProtocolError(.replaced, "You signed in on another connection.")), toConnection: previous)
            transport.close(previous, code: 4001, reason: "signed in elsewhere")
        }
        session.state = .identified(player)
        online[player.id] = connection
        reply(session, ServerMessage.identified(player: player.id, name: player.name, token: token, instance: cluster?.instance,
                                                hand: session.hand, learnsHand: recognition.handModel != nil))
        if let code = memberships[player.id], let room = rooms[code] {
            feed(room, .reconnect(player.id), request: request)
        }
    }
}
