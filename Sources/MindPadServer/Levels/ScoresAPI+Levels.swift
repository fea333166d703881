import MindPadHTTP
import MindPadRules
import MindPadStorage

/// A player's progress through the games with levels (docs/openapi.yaml,
/// "levels"): what the level screen shows, kept on the server so it follows
/// the player to a new device. Private to the player like their fish: every
/// call proves it with their token through `runAsPlayer`, so wrong tokens
/// count against the same failure limit. Which games have levels, and how
/// many, comes from the registry (`GameInfo.levelCount`), never from here.
extension ScoresAPI {
    func listLevels(name raw: String, _ request: HTTPRequest, _ responder: HTTPResponder) {
        guard let (player, only) = levelsRequest(name: raw, request, responder) else { return }
        let ladders = only.map { [$0] } ?? games.games.filter(\.hasLevels)
        runAsPlayer(player, responder, within: Self.readDeadline) { connection, found in
            let records = try LevelStore(connection).progress(playerID: found.id, game: only?.identifier)
            return .json(200, LevelsJSON.Progress(ladders, records))
        }
    }

    /// Deletes the player's progress in every game (even one the server no
    /// longer hosts), or in the one `?game=` names.
    func resetLevels(name raw: String, _ request: HTTPRequest, _ responder: HTTPResponder) {
        guard let (player, only) = levelsRequest(name: raw, request, responder) else { return }
        runAsPlayer(player, responder) { connection, found in
            .json(200, LevelsJSON.Reset(reset: try LevelStore(connection).reset(playerID: found.id, game: only?.identifier)))
        }
    }

    /// The game `?game=` names, which must have levels (400 `unknown_game`
    /// or `no_levels`), or nil when it names none (every game).
    /// The player's credentials and the `?game=` of a levels call, or nil
    /// once the refusal has been answered.
    private func levelsRequest(name raw: String, _ request: HTTPRequest,
                               _ responder: HTTPResponder) -> (PlayerCredentials, GameInfo?)? {
        do {
            return (try credentials(name: raw, request), try levelledGame(request))
        } catch {
            responder.respond(error.response)
            return nil
        }
    }

    private func levelledGame(_ request: HTTPRequest) throws(Refusal) -> GameInfo? {
        try Self.refuseRepeats(["game"], in: request)
        guard let name = request.query["game"] else { return nil }
        let info = try game(name)
        guard info.hasLevels else {
            let levelled = games.games.filter(\.hasLevels).map(\.identifier)
            let offer = levelled.isEmpty ? "no game on this server has levels" : "games with levels: \(levelled.joined(separator: ", "))"
            throw Refusal(.error(400, code: "no_levels", message: "\(info.identifier) has no levels; \(offer)"))
        }
        return info
    }

    /// The highscore resets' `?levels=`: absent or `false` leaves the level
    /// progress alone, `true` takes it too; anything else is 400.
    static func levelsFlag(_ value: String?) throws(Refusal) -> Bool {
        switch value {
        case nil, "false": return false
        case "true": return true
        default: throw Refusal(badLevels)
        }
    }

    static let badLevels = HTTPResponse.error(400, code: "bad_levels", message: "levels must be true or false")
}
