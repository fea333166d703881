import MindPadJSON

/// What a game kind adds to a racer's result beyond the score
/// (`GameKind.detail`): each kind builds it from a `Codable` value of its
/// own, and nothing outside the kind reads inside it.
///
/// - `members`: a JSON object whose members are added to the racer's
///   result wherever it is shown (`finished`, `standings`, the replay) and
///   stored with it (`game_results.detail`, migration 0018). Its keys are
///   the kind's own (the path finder's `path`), never a result's (`score`).
/// - `replay`: a JSON object shown only by the replay, laid over `members`
///   (`JSON.merging`); stored apart (`game_results.replay_detail`) and
///   deleted with the run's answers by their retention, like the strokes.
///   Once it is gone the replay shows its shape with nulls
///   (`storedMembers`).
public struct ResultDetail: Sendable, Equatable, Hashable, Codable {
    public let members: JSON
    public let replay: JSON?

    /// - Parameters: both objects (anything else is a programming error).
    public init(members: JSON, replay: JSON? = nil) {
        precondition(members.isObject && (replay?.isObject ?? true), "a result detail's parts are JSON objects")
        self.members = members
        self.replay = replay
    }

    /// A kind's own value as the detail's members (`JSONValueEncoder`):
    /// it must encode as an object, and may fail only by a programming error.
    public init<Members: Encodable>(_ value: Members, replay: JSON? = nil) {
        do {
            self.init(members: try JSONValueEncoder().encode(value), replay: replay)
        } catch {
            preconditionFailure("a result detail that does not encode: \(error)")
        }
    }

    /// What is stored as the result's detail: the members with the replay
    /// part's shape in nulls, so that a replay whose part was deleted (or
    /// never kept) still says which values are missing.
    public var storedMembers: JSON {
        replay.map { members.merging($0.nullingLeaves) } ?? members
    }

    /// What the replay shows: the members with the replay part over them.
    public var replayed: JSON { replay.map { storedMembers.merging($0) } ?? members }

    public static func == (a: ResultDetail, b: ResultDetail) -> Bool {
        a.members == b.members && a.replay == b.replay
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.text)
        hasher.combine(replay?.text)
    }

    private enum CodingKeys: String, CodingKey { case members, replay }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let members = try JSON.parse(try c.decode(String.self, forKey: .members))
        let replay = try c.decodeIfPresent(String.self, forKey: .replay).map { try JSON.parse($0) }
        guard members.isObject, replay?.isObject ?? true else {
            throw DecodingError.dataCorruptedError(forKey: .members, in: c, debugDescription: "not JSON objects")
        }
        self.init(members: members, replay: replay)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(members.text, forKey: .members)
        try c.encodeIfPresent(replay?.text, forKey: .replay)
    }
}
