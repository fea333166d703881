import MindPadHTTP
import MindPadRules
import MindPadStorage

/// A player's path-finder rounds (docs/openapi.yaml, "path_rounds"): the
/// seed's leader board of their last five. Public, like the player's page:
/// no token.
extension ScoresAPI {
    func pathRounds(name raw: String, _ request: HTTPRequest, _ responder: HTTPResponder) {
        let name: PlayerName
        do { name = try Self.playerName(raw) } catch { return responder.respond(error.response) }
        runForPlayer(name, responder) { connection, player in
            let recent = try PathStore(connection).recentRounds(playerID: player.id, limit: PathRanking.recentCount)
            return .json(200, PathRoundsJSON.Rounds(player: player.name, recent: recent))
        }
    }
}
