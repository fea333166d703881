import MindPadHTTP
import MindPadRules
import MindPadStorage

/// A player's path-finder rounds (docs/openapi.yaml, "path_rounds"): the
/// seed's leader board of their last five. Public, like the player's page:
/// no token. The path finder's own resource, registered with it.
extension APIRoute {
    static let pathRounds = APIRoute(pattern: ["players", "{name}", "path_rounds"], allowed: [.get]) { api, captured, _, responder in
        let name: PlayerName
        do throws(ScoresAPI.Refusal) { name = try ScoresAPI.playerName(captured[0]) } catch { return responder.respond(error.response) }
        api.runForPlayer(name, responder) { connection, player in
            let recent = try PathStore(connection).recentRounds(playerID: player.id, limit: PathRanking.recentCount)
            return .json(200, PathRoundsJSON.Rounds(player: player.name, recent: recent))
        }
    }
}
