import MindPadHTTP
/// The resources of the HTTP API (docs/openapi.yaml): scores, fish, level
/// progress, race replays, sign-in codes and weather, and the methods each takes. A path is matched on its decoded
/// segments (`HTTPRequest.pathSegments`), never decoded again: a name
/// arrives as it was sent.
enum ScoresRoute: Equatable {
    case games
    case leaderboard
    case players
    case profile(name: String)
    case ownReset(name: String)
    case adminReset
    /// A player's fish: list (GET) and create (POST).
    case fishList(name: String)
    /// One of a player's fish: delete.
    case fish(name: String, id: String)
    case fishKinds
    case weather
    /// A player's progress through the games with levels.
    case levels(name: String)
    /// A player resets their own level progress.
    case levelsReset(name: String)
    /// A race's runs and answers, for its replay (public).
    case race(id: String)
    /// The operator's list of races whose answers look suspicious.
    case suspiciousRaces
    /// A player asks for a one-time code to sign in on another device.
    case signInCodes(name: String)
    /// Another device trades a code for a token of its own.
    case signIn

    /// The route for the segments after `/api`, or nil (404).
    init?(_ segments: some Collection<String>) {
        switch Array(segments) {
        case ["games"]: self = .games
        case ["leaderboard"]: self = .leaderboard
        case ["players"]: self = .players
        case let p where p.count == 2 && p[0] == "players": self = .profile(name: p[1])
        case let p where p.count == 4 && p[0] == "players" && p[2] == "highscores" && p[3] == "reset":
            self = .ownReset(name: p[1])
        case let p where p.count == 3 && p[0] == "players" && p[2] == "fish": self = .fishList(name: p[1])
        case let p where p.count == 3 && p[0] == "players" && p[2] == "levels": self = .levels(name: p[1])
        case let p where p.count == 4 && p[0] == "players" && p[2] == "levels" && p[3] == "reset":
            self = .levelsReset(name: p[1])
        case let p where p.count == 4 && p[0] == "players" && p[2] == "fish": self = .fish(name: p[1], id: p[3])
        case let p where p.count == 3 && p[0] == "players" && p[2] == "sign_in_codes": self = .signInCodes(name: p[1])
        case let p where p.count == 2 && p[0] == "races": self = .race(id: p[1])
        case ["admin", "reset"]: self = .adminReset
        case ["admin", "suspicious_races"]: self = .suspiciousRaces
        case ["sign_in"]: self = .signIn
        case ["fish", "kinds"]: self = .fishKinds
        case ["weather"]: self = .weather
        default: return nil
        }
    }

    /// What `Allow` lists for this resource; anything else is 405.
    var allowed: [HTTPMethod] {
        switch self {
        case .games, .leaderboard, .profile, .fishKinds, .weather, .levels, .race, .suspiciousRaces: [.get]
        case .players, .ownReset, .adminReset, .levelsReset, .signInCodes, .signIn: [.post]
        case .fishList: [.get, .post]
        case .fish: [.delete]
        }
    }
}
