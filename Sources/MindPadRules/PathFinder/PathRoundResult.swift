/// A path-finder racer's round, as results show it and storage keeps it
/// (`ResultDetail.path`). Times are from the race start.
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
    /// `gridShownAfter` is not one): the replay draws the route.
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
}
