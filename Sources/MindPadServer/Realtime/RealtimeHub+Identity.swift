import MindPadRules

/// `identify`: a new name gets a token (once); a returning player proves the
/// name with it. A second connection of the same player takes over: the
/// first is closed with 4001, and a player who was in a room is resumed in it.
extension RealtimeHub {
    func identify(_ session: Session, name raw: String, token: String?) {
        guard session.player == nil, !session.identifying else {
            reply(session, ProtocolError("already_identified", "This connection is already identified.", request: "identify"))
            return
        }
        let name: PlayerName
        do {
            name = try PlayerName(validating: raw)
        } catch {
            reply(session, ProtocolError(error.code, error.description, request: "identify"))
            return
        }
        if let token, token.isEmpty || token.utf8.count > 256 {
            reply(session, ProtocolError("wrong_token", "That token does not belong to this name.", request: "identify"))
            return
        }
        session.identifying = true
        let connection = session.connection
        let finish: @Sendable (Result<(IdentifiedPlayer, String?), IdentityError>) -> Void = { [weak self] result in
            guard let self, let server = self.server else { return }
            server.post { self.identified(connection, requested: name, result: result) }
        }
        if let token {
            players.authenticate(nameKey: name.key, token: token) { result in finish(result.map { ($0, nil) }) }
        } else {
            players.register(name: name.display, nameKey: name.key) { result in finish(result.map { ($0.0, $0.token) }) }
        }
    }

    private func identified(_ connection: ConnectionID, requested: PlayerName,
                            result: Result<(IdentifiedPlayer, String?), IdentityError>) {
        guard let session = sessions[connection], !session.closing else { return }
        session.identifying = false
        switch result {
        case .failure(.nameTaken):
            reply(session, ProtocolError("name_taken", "\(requested.display) belongs to another player; pick another name, or send its token.", request: "identify"))
        case .failure(.wrongToken):
            reply(session, ProtocolError("wrong_token", "That token does not belong to this name.", request: "identify"))
        case .failure(.unavailable):
            reply(session, ProtocolError("unavailable", "Players cannot be checked right now; try again in a moment.", request: "identify"))
        case .success(let (identified, token)):
            let name = (try? PlayerName(validating: identified.name)) ?? requested
            let player = Session.Player(id: PlayerID("p\(identified.id)"), databaseID: identified.id, name: name)
            if let previous = online[player.id], let old = sessions[previous] {
                // The same player on a new socket: the old one goes.
                old.closing = true
                old.player = nil
                send(ServerMessage.error(ProtocolError("replaced", "You signed in on another connection.")).text, toConnection: previous)
                server?.close(previous, code: 4001, reason: "signed in elsewhere")
            }
            session.player = player
            online[player.id] = connection
            reply(session, ServerMessage.identified(player: player.id, name: name, token: token))
            if let code = memberships[player.id], let room = rooms[code] {
                room.handle(.reconnect(player.id), request: "identify")
            }
        }
    }
}
