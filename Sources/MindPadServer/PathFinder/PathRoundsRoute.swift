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
            // The seed ranks the last five completed rounds; a round the
            // racer left is kept but is not one of them.
            let recent = try DetailStore(connection).recent(playerID: player.id, game: PathRoundsJSON.game, completedOnly: true,
                                                            began: PathRoundResult.beganKeys,
                                                            limit: PathRanking.recentCount)
            return .json(200, PathRoundsJSON.Rounds(player: player.name, recent: recent.compactMap(PathRoundsJSON.StoredRound.init)))
        }
    }
}
