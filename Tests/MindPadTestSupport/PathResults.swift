import Foundation
import MindPadStorage

extension GameResultRecord {
    /// A path-finder result as the hub stores it (`path_finder`, lower
    /// first, one round): the score is the round's rank value × 1000,
    /// rounded, and 0 for a round never finished (`seconds` nil).
    public static func pathFinder(playerID: Int64, steps: Int = 9, rows: Int = 4, columns: Int = 5, goal: (row: Int, column: Int) = (3, 4),
                                  tries: Int = 0, startedAtMs: Int64, seconds: Double? = 12.5,
                                  id: String = UUID().uuidString.lowercased()) -> GameResultRecord {
        let ended = seconds.map { startedAtMs + Int64(($0 * 1000).rounded()) }
        let score = ended.map { Int((Double(steps) * Double($0 - startedAtMs) / 1000 / Double(rows * columns) * 1000).rounded()) } ?? 0
        let path = PathRoundRecord(rows: rows, columns: columns, goalRow: goal.row, goalColumn: goal.column, steps: steps,
                                   bestSteps: goal.row + goal.column - 2, tries: tries, startedAtMs: startedAtMs, endedAtMs: ended)
        let finished = (ended ?? startedAtMs + 30_000) + 1
        return GameResultRecord(resultID: id, playerID: playerID, game: "path_finder", lowerScoreWins: true, mode: "normal",
                                score: score, correct: ended == nil ? 0 : 1, answered: 1,
                                durationMs: Int(finished - startedAtMs) + 2_000, finishedAtMs: finished, path: path)
    }
}
