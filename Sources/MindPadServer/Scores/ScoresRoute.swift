/// The resources of the scores API (docs/openapi.yaml) and the methods each
/// takes. A path is matched on its decoded segments (`HTTPRequest
/// .pathSegments`), never decoded again: a name arrives as it was sent.
enum ScoresRoute: Equatable {
    case games
    case leaderboard
    case players
    case profile(name: String)
    case ownReset(name: String)
    case adminReset

    /// The route for the segments after `/api`, or nil (404).
    init?(_ segments: some Collection<String>) {
        switch Array(segments) {
        case ["games"]: self = .games
        case ["leaderboard"]: self = .leaderboard
        case ["players"]: self = .players
        case let p where p.count == 2 && p[0] == "players": self = .profile(name: p[1])
        case let p where p.count == 4 && p[0] == "players" && p[2] == "highscores" && p[3] == "reset":
            self = .ownReset(name: p[1])
        case ["admin", "reset"]: self = .adminReset
        default: return nil
        }
    }

    /// What `Allow` lists for this resource; anything else is 405.
    var allowed: [HTTPMethod] {
        switch self {
        case .games, .leaderboard, .profile: [.get]
        case .players, .ownReset, .adminReset: [.post]
        }
    }
}
