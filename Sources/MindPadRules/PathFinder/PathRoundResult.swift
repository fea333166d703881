import MindPadJSON

/// A path-finder racer's round: the path finder's result detail
/// (`ResultDetail`), shown with the result as `path` and stored in that
/// form (`game_results.detail`). Times are from the race start. Its route
/// is the detail's replay part (`path.route`, `[row, column, ms]`), deleted
/// with the run's answers.
public struct PathRoundResult: Sendable, Hashable, Codable {
    public let rows: Int
    public let columns: Int
    public let goal: GridCell
    public let steps: Int
    /// The fewest moves that reach the goal (`PathFinder.bestSteps`).
    public let bestSteps: Int
    /// Wrong guesses of the grid.
    public let tries: Int
    /// When the grid was guessed and shown (the round's start); nil if never.
    public let gridShownAfter: RaceDuration?
    /// When the robot stood on the goal (the round's end); nil if never.
    public let goalReachedAfter: RaceDuration?
    /// The robot's moves, each with when it was made from the race start
    /// (at most `PathFinder.routeLimit`; the start cell (1,1) at
    /// `gridShownAfter` is not one): the replay draws the route. Not part
    /// of the coded value (it is the detail's replay part).
    public let route: [PathStep]

    public init(rows: Int, columns: Int, goal: GridCell, steps: Int, bestSteps: Int, tries: Int,
                gridShownAfter: RaceDuration?, goalReachedAfter: RaceDuration?, route: [PathStep] = []) {
        self.rows = rows
        self.columns = columns
        self.goal = goal
        self.steps = steps
        self.bestSteps = bestSteps
        self.tries = tries
        self.gridShownAfter = gridShownAfter
        self.goalReachedAfter = goalReachedAfter
        self.route = route
    }

    /// Cells in the grid.
    public var gridSize: Int { rows * columns }

    /// The seed's rank value of a finished round, as its score has it
    /// (`PathFinder.points` ÷ 1000: rounded to thousandths); nil for a round
    /// never finished.
    public var rankValue: Double? {
        goalReachedAfter.map { end in
            Double(PathFinder.points(steps: steps, steering: end - (gridShownAfter ?? .zero), gridSize: gridSize)) / 1000
        }
    }

    /// The key of the detail's members (`racers[].path`).
    public static let detailKey = "path"

    /// Where the stored detail says when the round began, in ms from the
    /// race start (`DetailStore.recent(began:)`): the grid shown.
    public static let beganKeys = [detailKey, CodingKeys.grid_shown_ms.rawValue]

    /// The round as the path finder's result detail: the round under
    /// `path`, its route in the replay part (the start cell when the grid
    /// was shown, then each move; null when the grid never was).
    public var detail: ResultDetail {
        let route: JSON = gridShownAfter.map { shown in
            .array([Self.routeEntry(GridCell.start, shown)] + self.route.map { Self.routeEntry($0.cell, $0.after) })
        } ?? .null
        return ResultDetail(Self.Members(path: self), replay: .object([(Self.detailKey, .object([("route", route)]))]))
    }

    private static func routeEntry(_ cell: GridCell, _ after: RaceDuration) -> JSON {
        .array([.int(cell.row), .int(cell.column), .int(Int(after.milliseconds))])
    }

    /// The round a path-finder detail's members hold (`{"path": …}`, as
    /// shown and stored), without its route; nil for any other JSON.
    public init?(members: JSON) {
        guard let path = members[Self.detailKey], let round = try? JSONValueDecoder().decode(Self.self, from: path) else { return nil }
        self = round
    }

    /// The round of a path finder's result detail, without its route.
    public init?(_ detail: ResultDetail?) {
        guard let detail else { return nil }
        self.init(members: detail.members)
    }

    /// `{"path": round}`.
    public struct Members: Codable {
        public let path: PathRoundResult
    }

    private enum CodingKeys: String, CodingKey {
        case rows, columns, goal, steps, best_steps, tries, grid_shown_ms, goal_reached_ms, rank_value
    }

    /// Every key written, `null` for what the round never reached.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rows, forKey: .rows)
        try c.encode(columns, forKey: .columns)
        try c.encode(goal, forKey: .goal)
        try c.encode(steps, forKey: .steps)
        try c.encode(bestSteps, forKey: .best_steps)
        try c.encode(tries, forKey: .tries)
        try c.encode(gridShownAfter.map { Int($0.milliseconds) }, forKey: .grid_shown_ms)
        try c.encode(goalReachedAfter.map { Int($0.milliseconds) }, forKey: .goal_reached_ms)
        try c.encode(rankValue, forKey: .rank_value)
    }

    /// The stored round (its rank value is recomputed; the route is not read).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(rows: try c.decode(Int.self, forKey: .rows), columns: try c.decode(Int.self, forKey: .columns),
                  goal: try c.decode(GridCell.self, forKey: .goal), steps: try c.decode(Int.self, forKey: .steps),
                  bestSteps: try c.decode(Int.self, forKey: .best_steps), tries: try c.decode(Int.self, forKey: .tries),
                  gridShownAfter: try c.decodeIfPresent(Int.self, forKey: .grid_shown_ms).map { .milliseconds(Int64($0)) },
                  goalReachedAfter: try c.decodeIfPresent(Int.self, forKey: .goal_reached_ms).map { .milliseconds(Int64($0)) })
    }
}
