import MindPadRules
import MindPadStorage

/// The game kinds this server hosts, by identifier, in menu order. Each
/// entry knows its catalog data and how to open a room of its kind; the hub
/// and the scores API look kinds up here and never name one.
///
/// Adding a kind is its own files in `MindPadRules` plus one line in
/// `standard` (docs/architecture.md, "Adding a game kind").
public struct GameRegistry: Sendable {
    /// One registered kind.
    struct Entry: Sendable {
        let info: GameInfo
        let openRoom: @Sendable (_ code: String, _ configuration: RaceConfiguration, _ seed: UInt64,
                                 _ now: RaceInstant, _ settings: RoomSettings) -> any GameRoom
        /// The kind's own resources under `/api`.
        let routes: [APIRoute]
        /// Older shapes of the kind's detail in journal lines.
        let legacyDetails: [LegacyDetail]
    }

    /// A kind's detail as journal lines of an older server carried it: a
    /// member of its own (`GameResultRecord.legacyDetails[key]`), made the
    /// detail of today before the line is written (`ResultRecorder`).
    struct LegacyDetail: Sendable {
        let key: String
        /// Sets the record's `detail` (and what else the old shape implied)
        /// from the member's JSON text; leaves it alone if it cannot.
        let upgrade: @Sendable (_ text: String, _ record: inout GameResultRecord) -> Void
    }

    private(set) var entries: [Entry] = []

    /// The game a request means when it names none (`create_room` without
    /// `game`, `/api/leaderboard` without `?game=`): clients written before
    /// there were several games keep working. Stored results of that time
    /// are this game's too (migration 0006).
    public static let defaultGame = GameResultRecord.legacyGame

    public init() {}

    /// Every kind the server offers.
    public static var standard: GameRegistry {
        var registry = GameRegistry()
        registry.register(MindPadArithmetic())
        registry.register(AddOne())
        for kids in KidsGame.all { registry.register(kids) }
        registry.register(PathFinder(), routes: [.pathRounds], legacyDetails: [.pathRound0009])
        return registry
    }

    /// Adds a kind; a second kind with the same identifier is a programming error.
    public mutating func register<Kind: GameKind>(_ kind: Kind) {
        register(kind, routes: [])
    }

    /// Adds a kind with resources of its own under `/api` (none may match
    /// a path another kind's does).
    mutating func register<Kind: GameKind>(_ kind: Kind, routes: [APIRoute], legacyDetails: [LegacyDetail] = []) {
        let info = kind.info
        precondition(entries.allSatisfy { $0.info.identifier != info.identifier }, "game \(info.identifier) registered twice")
        precondition(Self.isValidIdentifier(info.identifier), "game identifier \(info.identifier) must match [a-z][a-z0-9_]{0,31}")
        precondition(!info.modes.isEmpty && info.normalQuestionCount >= 1, "game \(info.identifier) needs a mode and a Normal length")
        // `level_progress` holds levels 1…20 (migration 0008).
        precondition((info.levelCount == nil) == (info.passMark == nil)
                     && (info.levelCount.map { (1...20).contains($0) } ?? true)
                     && (info.passMark.map { (1...info.normalQuestionCount).contains($0) } ?? true),
                     "game \(info.identifier): levels 1…20 with a pass mark within a Normal race, or neither")
        // A group is a name beside the games' ids: never one of them.
        precondition(info.group.map { group in Self.isValidIdentifier(group) && !entries.contains { $0.info.identifier == group } } ?? true,
                     "game \(info.identifier): a group must match [a-z][a-z0-9_]{0,31} and name no game")
        precondition(routes.allSatisfy { route in !self.routes.contains { $0.overlaps(route) } },
                     "game \(info.identifier): a route that another kind's matches too")
        entries.append(Entry(info: info, openRoom: { code, configuration, seed, now, settings in
            RoomOwner(code: code, race: RaceStateMachine(kind: kind, configuration: configuration, seed: seed, now: now), now: now,
                      progressInterval: settings.progressInterval, logger: settings.logger, lesson: settings.lesson)
        }, routes: routes, legacyDetails: legacyDetails))
    }

    /// `record` with the older detail shapes its kind knows made today's
    /// (a journal line of an older server); members no kind takes dropped.
    @Sendable func upgradingLegacyDetails(_ record: GameResultRecord) -> GameResultRecord {
        guard !record.legacyDetails.isEmpty else { return record }
        var upgraded = record
        upgraded.legacyDetails = [:]
        for legacy in entry(record.game)?.legacyDetails ?? [] {
            if let text = record.legacyDetails[legacy.key] { legacy.upgrade(text, &upgraded) }
        }
        return upgraded
    }

    /// Every kind's own resources under `/api`.
    var routes: [APIRoute] { entries.flatMap(\.routes) }

    /// The catalog, in registration order.
    public var games: [GameInfo] { entries.map(\.info) }

    public func info(_ identifier: String) -> GameInfo? { entry(identifier)?.info }

    func entry(_ identifier: String) -> Entry? { entries.first { $0.info.identifier == identifier } }

    /// What the storage layer accepts as a game (migration 0006's check).
    static func isValidIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, ("a"..."z").contains(first), s.unicodeScalars.count <= 32 else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
