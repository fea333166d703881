import MindPadJSON
import MindPadRules
import MindPadStorage
@testable import MindPadServer

/// The Tally's own resource: a player's last completed rounds, read from
/// the details it stored (`DetailStore`), as the kind reads them.
extension APIRoute {
    static let tallies = APIRoute(pattern: ["players", "{name}", "tallies"], allowed: [.get]) { api, captured, _, responder in
        let name: PlayerName
        do throws(ScoresAPI.Refusal) { name = try ScoresAPI.playerName(captured[0]) } catch { return responder.respond(error.response) }
        api.runForPlayer(name, responder) { connection, player in
            let recent = try DetailStore(connection).recent(playerID: player.id, game: Tally().identifier, completedOnly: true, limit: 5)
            let rounds = try recent.map { stored -> Tally.Detail.Round in
                try JSONValueDecoder().decode(Tally.Detail.self, from: try JSON.parse(stored.detail)).tally
            }
            return .json(200, TallyRounds(player: player.name, rounds: rounds))
        }
    }
}

struct TallyRounds: Encodable {
    let player: String
    let rounds: [Tally.Detail.Round]
}
