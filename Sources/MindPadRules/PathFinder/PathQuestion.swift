/// The path finder's one question of a race: a grid of `rows × columns`
/// (each 4…6) and a goal on any cell but the start. Stays on the server
/// until the grid is guessed.
public struct PathQuestion: Sendable, Hashable, CustomStringConvertible {
    public let rows: Int
    public let columns: Int
    public let goal: GridCell

    public init?(rows: Int, columns: Int, goal: GridCell) {
        guard PathFinder.sides.contains(rows), PathFinder.sides.contains(columns) else { return nil }
        self.rows = rows
        self.columns = columns
        self.goal = goal
        guard contains(goal), goal != .start else { return nil }
    }

    /// Cells in the grid: what the racer is shown before guessing.
    public var cells: Int { rows * columns }

    /// Whether `cell` is on the grid.
    public func contains(_ cell: GridCell) -> Bool {
        (1...rows).contains(cell.row) && (1...columns).contains(cell.column)
    }

    public var description: String { "\(rows)×\(columns) goal \(goal)" }
}

/// What a racer has done to the question so far (`GameKind.Attempt`).
public struct PathAttempt: Sendable, Hashable {
    /// Guessing the grid, then steering the robot.
    public enum Stage: String, Sendable, Hashable, Codable {
        case guess, steer
    }

    public internal(set) var stage: Stage = .guess
    public internal(set) var robot: GridCell = .start
    /// Moves that were made (refused ones are not).
    public internal(set) var steps = 0
    /// Wrong guesses of the grid.
    public internal(set) var tries = 0
    /// When the grid was guessed, from the question's sending: the round's
    /// clock starts there.
    public internal(set) var gridShownAfter: RaceDuration?
    /// When the robot reached the goal, from the question's sending.
    public internal(set) var goalReachedAfter: RaceDuration?
    /// Every move made, in order: the cell it reached and when, from the
    /// question's sending (at most `PathFinder.routeLimit`), for the replay.
    public internal(set) var route: [PathStep] = []

    public init() {}
}

/// One move of the robot: the cell it reached and when.
public struct PathStep: Sendable, Hashable, Codable {
    public let cell: GridCell
    public let after: RaceDuration

    public init(cell: GridCell, after: RaceDuration) {
        self.cell = cell
        self.after = after
    }
}
