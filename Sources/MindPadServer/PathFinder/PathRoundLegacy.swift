import MindPadJSON
import MindPadRules
import MindPadStorage

extension GameRegistry.LegacyDetail {
    /// A journal line of a server from 0009 to 0018 carries the path
    /// finder's round as `path`, in the shape of its table of that time:
    /// wall-clock `startedAtMs`/`endedAtMs`, `goalRow`/`goalColumn`, and the
    /// route (`[row, column, ms]`, ms from the race start) or none. Made the
    /// path finder's detail of today (`PathRoundResult.detail`), times from
    /// the race start (`finishedAtMs − durationMs`), as migration 0018 does
    /// with the stored rounds.
    static let pathRound0009 = GameRegistry.LegacyDetail(key: PathRoundResult.detailKey) { text, record in
        guard let old = try? JSON.parse(text),
              let rows = old["rows"]?.integer, let columns = old["columns"]?.integer,
              let goalRow = old["goalRow"]?.integer, let goalColumn = old["goalColumn"]?.integer,
              let steps = old["steps"]?.integer, let bestSteps = old["bestSteps"]?.integer, let tries = old["tries"]?.integer,
              let started = old["startedAtMs"]?.integer else { return }
        let raceStart = Int(record.finishedAtMs) - record.durationMs
        let after = { (ms: Int) in RaceDuration.milliseconds(Int64(max(0, ms - raceStart))) }
        let ended = old["endedAtMs"]?.integer
        let round = PathRoundResult(rows: rows, columns: columns, goal: GridCell(row: goalRow, column: goalColumn), steps: steps,
                                    bestSteps: bestSteps, tries: tries, gridShownAfter: after(started), goalReachedAfter: ended.map(after))
        // The route as it was kept (its start cell first), or none.
        let route = old["route"] ?? .null
        let detail = ResultDetail(members: round.detail.members,
                                  replay: .object([(PathRoundResult.detailKey, .object([("route", route)]))]))
        record.detail = detail.storedMembers.text
        record.replayDetail = route.isNull ? nil : detail.replay?.text
        record.completed = record.completed ?? (ended != nil)
    }
}
