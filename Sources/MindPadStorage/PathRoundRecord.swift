/// One racer's round of the grid path finder (migration 0009), stored with
/// its result (`GameResultRecord.path`) in the same statement. Codable so
/// it waits in the journal with its result.
///
/// A round starts when the racer's grid is shown and ends when the robot
/// stands on the goal; `endedAtMs` is nil for a round never finished. Such
/// a round is kept (the player's history, and the seed's ranking of their
/// last five, which counts it) but its result enters no board.
public struct PathRoundRecord: Codable, Sendable, Equatable {
    /// The grid: rows and columns, each 4…6.
    public var rows: Int
    public var columns: Int
    /// The goal's cell, 1-based, never (1, 1).
    public var goalRow: Int
    public var goalColumn: Int
    /// Moves counted (refused moves are not).
    public var steps: Int
    /// The shortest path from (1, 1) to the goal.
    public var bestSteps: Int
    /// Wrong guesses of the grid before the right one.
    public var tries: Int
    /// Milliseconds since 1970, UTC.
    public var startedAtMs: Int64
    /// Milliseconds since 1970, UTC; nil when the robot never reached the goal.
    public var endedAtMs: Int64?
    /// The robot's route for the replay (migration 0016): `[row, column, ms]`
    /// per cell it stood on, ms from the race start, the start cell (1, 1)
    /// first at the moment the grid was shown, then each move (at most
    /// `PathFinder.routeLimit`). nil when not kept (rounds stored before
    /// 0016, or whose answers' details the retention deleted).
    public var route: [[Int]]?

    public init(rows: Int, columns: Int, goalRow: Int, goalColumn: Int, steps: Int, bestSteps: Int, tries: Int,
                startedAtMs: Int64, endedAtMs: Int64?, route: [[Int]]? = nil) {
        (self.rows, self.columns, self.goalRow, self.goalColumn) = (rows, columns, goalRow, goalColumn)
        (self.steps, self.bestSteps, self.tries) = (steps, bestSteps, tries)
        (self.startedAtMs, self.endedAtMs, self.route) = (startedAtMs, endedAtMs, route)
    }

    /// The grid's cells (the table's generated `grid_size`).
    public var gridSize: Int { rows * columns }
}
