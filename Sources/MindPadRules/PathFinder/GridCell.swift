/// A cell of the path finder's grid, 1-based: (1,1) is the top-left cell
/// and row 1 the top row. On the wire `{"row":2,"column":1}`.
public struct GridCell: Sendable, Hashable, Codable, CustomStringConvertible {
    public let row: Int
    public let column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    /// Where the robot starts.
    public static let start = GridCell(row: 1, column: 1)

    /// The neighbouring cell in `direction` (possibly off the grid).
    public func moved(_ direction: PathMove) -> GridCell {
        switch direction {
        case .north: GridCell(row: row - 1, column: column)
        case .south: GridCell(row: row + 1, column: column)
        case .east: GridCell(row: row, column: column + 1)
        case .west: GridCell(row: row, column: column - 1)
        }
    }

    /// The move that leads from here to `cell`, nil unless they are
    /// neighbours (a cell is not its own neighbour; diagonals are not).
    public func direction(to cell: GridCell) -> PathMove? {
        PathMove.allCases.first { moved($0) == cell }
    }

    /// Moves needed from here to `cell` on a grid without obstacles.
    public func distance(to cell: GridCell) -> Int {
        abs(row - cell.row) + abs(column - cell.column)
    }

    public var description: String { "(\(row),\(column))" }
}

/// One of the four moves: North is row − 1, South row + 1, East column + 1,
/// West column − 1.
public enum PathMove: String, Sendable, Hashable, Codable, CaseIterable {
    case north, east, south, west
}
