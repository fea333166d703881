import MindPadHTTP
import MindPadRules

/// A connection whose player left a room that has not said its last words
/// to them yet, and the messages that came meanwhile.
struct Leaving {
    let code: String
    var queued: [ClientMessage] = []
}

/// Leaving a room (issue 45): `left_room` is the last message of the room.
///
/// A racer who leaves mid-race ends their run: the room stores it and tells
/// them `finished` (once durable) and `result_saved` (once storage
/// answered, at most about 2 s later). Those come first; `left_room` after
/// them, so a client that opens a new room right away never takes the old
/// run's messages for the new one. Whatever the connection sends meanwhile
/// waits, in order, and is handled right after `left_room`, as if it had
/// come then.
extension RealtimeHub {
    /// Messages a leaving connection may send before `left_room` goes;
    /// one more is flooding (a client waits for `left_room`), answered as
    /// the rate limit is.
    static let maxHeldWhileLeaving = 256

    func leave(_ room: any GameRoom, player: Session.Player, session: Session, request: String) {
        feed(room, .leave(player.id), request: request)
        guard memberships[player.id] == nil else { return }
        let connection = session.connection
        leaving[connection] = Leaving(code: room.code)
        awaitingLastWords[room.code, default: [:]][player.id] = connection
        perform(room.awaitLastWords(of: player.id), for: room)
    }

    /// A message of a connection that is leaving a room: it waits for
    /// `left_room`.
    func holdWhileLeaving(_ message: ClientMessage, from session: Session) {
        let connection = session.connection
        guard var state = leaving[connection] else { return dispatch(message, from: session) }
        guard state.queued.count < Self.maxHeldWhileLeaving else {
            leaving[connection] = nil
            logger.notice("flooding while leaving a room", metadata: ["conn": "\(connection)"])
            reply(session, ProtocolError(.rateLimited, "Too many messages; wait for \"left_room\". Goodbye."))
            session.state = .closing(session.player)
            transport.close(connection, code: 1008, reason: "rate limit exceeded")
            return
        }
        state.queued.append(message)
        leaving[connection] = state
    }

    /// The room has said its last words: `left_room`, then what the
    /// connection sent meanwhile, in order (a message that leaves another
    /// room makes the rest wait again).
    func leftRoom(_ connection: ConnectionID) {
        guard let state = leaving.removeValue(forKey: connection),
              let session = sessions[connection], !session.isClosing else { return }
        reply(session, ServerMessage.leftRoom(code: state.code))
        var rest = state.queued[...]
        while let message = rest.popFirst() {
            guard sessions[connection] === session, !session.isClosing else { return }
            dispatch(message, from: session)
            if leaving[connection] != nil {
                leaving[connection]?.queued.append(contentsOf: rest)
                return
            }
        }
    }
}
