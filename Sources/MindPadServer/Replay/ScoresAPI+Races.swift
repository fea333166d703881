import MindPadHTTP
import MindPadStorage

/// Race replays (docs/openapi.yaml, "races"): every run of a race with its
/// answers and strokes, public like the boards (a replay link is for
/// anyone), and the operator's list of races whose answers look
/// suspicious, behind the admin token.
extension ScoresAPI {
    func race(id: String, _ request: HTTPRequest, _ responder: HTTPResponder) {
        guard ReplayJSON.isRaceID(id) else {
            return responder.respond(.error(400, code: "bad_race", message: "a race id is 1 to 64 of A-Z, a-z, 0-9, _ and -"))
        }
        let games = self.games
        run(responder, within: Self.readDeadline) { connection in
            let runs = try RaceStore(connection).race(id)
            guard let first = runs.first else {
                return .error(404, code: "unknown_race", message: "no race \(id) is stored")
            }
            return .json(200, text: try ReplayJSON.race(id, runs, game: games.info(first.game)).text)
        }
    }

    /// The default and the most races one listing holds.
    static let suspiciousDefault = 50

    func suspiciousRaces(_ request: HTTPRequest, _ responder: HTTPResponder) {
        let limit: Int
        do throws(Refusal) {
            _ = try adminClient(request)
            try Self.refuseRepeats(["limit"], in: request)
            guard let n = Int(request.query["limit"] ?? String(Self.suspiciousDefault)), (1...Self.maxLimit).contains(n) else {
                throw Refusal(.error(400, code: "bad_limit", message: "limit must be a whole number from 1 to \(Self.maxLimit)"))
            }
            limit = n
        } catch {
            return responder.respond(error.response)
        }
        let thresholds = suspicion
        run(responder) { connection in
            let runs = try RaceStore(connection).suspiciousRuns(thresholds)
            return .json(200, text: ReplayJSON.suspicious(runs, limit: limit, thresholds: thresholds).text)
        }
    }
}
