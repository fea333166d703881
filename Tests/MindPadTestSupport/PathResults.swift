import Foundation
import MindPadJSON
import MindPadRules
import MindPadStorage

extension GameResultRecord {
    /// A path-finder result as the hub stores it (`path_finder`, lower
    /// first, one round, its detail the kind's `PathRoundResult`): the race
    /// starts 2 s before the grid is shown at `startedAtMs`; the score is
    /// the round's rank value × 1000, rounded, and 0 for a round never
    /// finished (`seconds` nil), which is a run the racer left.
    public static func pathFinder(playerID: Int64, steps: Int = 9, rows: Int = 4, columns: Int = 5, goal: (row: Int, column: Int) = (3, 4),
                                  tries: Int = 0, startedAtMs: Int64, seconds: Double? = 12.5, route: [PathStep] = [],
                                  id: String = UUID().uuidString.lowercased()) -> GameResultRecord {
        let shown = RaceDuration.milliseconds(2_000)
        let reached = seconds.map { shown + .milliseconds(Int64(($0 * 1000).rounded())) }
        let round = PathRoundResult(rows: rows, columns: columns, goal: GridCell(row: goal.row, column: goal.column), steps: steps,
                                    bestSteps: goal.row + goal.column - 2, tries: tries, gridShownAfter: shown,
                                    goalReachedAfter: reached, route: route)
        let score = reached.map { PathFinder.points(steps: steps, steering: $0 - shown, gridSize: rows * columns) } ?? 0
        let raceStart = startedAtMs - shown.milliseconds
        let finished = raceStart + (reached ?? .milliseconds(32_000)).milliseconds + 1
        let detail = round.detail
        return GameResultRecord(resultID: id, playerID: playerID, game: "path_finder", lowerScoreWins: true, mode: "normal",
                                score: score, correct: reached == nil ? 0 : 1, answered: 1,
                                durationMs: Int(finished - raceStart), finishedAtMs: finished,
                                detail: detail.storedMembers.text, replayDetail: detail.replay?.text, completed: reached != nil)
    }
}

/// A path-finder round as a stored result holds it, in wall-clock time (the
/// shape tests compare what the API says against).
public struct StoredPathRound: Equatable, Sendable {
    public var rows, columns, goalRow, goalColumn, steps, bestSteps, tries: Int
    /// Milliseconds since 1970, UTC.
    public var startedAtMs: Int64
    public var endedAtMs: Int64?
    /// `[row, column, ms]` from the race start, as the replay part keeps it; nil when none.
    public var route: [[Int]]?

    public var gridSize: Int { rows * columns }

    /// The round as the seed's ranking sees it (seconds since 1970).
    public var ranking: PathRanking.Round {
        PathRanking.Round(startTime: Double(startedAtMs) / 1000, endTime: endedAtMs.map { Double($0) / 1000 },
                          stepCount: steps, gridSize: gridSize)
    }
}

extension GameResultRecord {
    /// The path finder's round of this result's detail; nil for a result
    /// without one. The race started `durationMs` before `finishedAtMs`.
    public var path: StoredPathRound? {
        guard let text = detail, let members = try? JSON.parse(text), let round = PathRoundResult(members: members) else { return nil }
        let raceStart = finishedAtMs - Int64(durationMs)
        let replay: JSON? = replayDetail.flatMap { try? JSON.parse($0) }
        let cells: [JSON]? = replay?[PathRoundResult.detailKey]?["route"]?.array
        let route: [[Int]]? = cells?.map { ($0.array ?? []).compactMap(\.integer) }
        let shown: RaceDuration = round.gridShownAfter ?? .zero
        return StoredPathRound(rows: round.rows, columns: round.columns, goalRow: round.goal.row, goalColumn: round.goal.column,
                               steps: round.steps, bestSteps: round.bestSteps, tries: round.tries,
                               startedAtMs: raceStart + shown.milliseconds,
                               endedAtMs: round.goalReachedAfter.map { raceStart + $0.milliseconds }, route: route)
    }
}
