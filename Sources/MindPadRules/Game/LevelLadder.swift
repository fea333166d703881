/// The unlock rule of every game with levels: level 1 is open from the
/// start, and a result of at least the pass mark on an open level opens the
/// next. A level played while still locked (a crafted client) counts for
/// nothing. Storage applies the same rule inside its batch statement
/// (`ScoreStore.record`); the levels API reads what it stored.
public enum LevelLadder {
    /// Whether `correct` right answers pass a level with this pass mark.
    public static func passes(correct: Int, passMark: Int) -> Bool {
        correct >= passMark
    }

    /// Whether `level` is open to a player who has passed `passed`.
    public static func isOpen(_ level: Int, passed: Set<Int>) -> Bool {
        level == 1 || passed.contains(level - 1)
    }

    /// The highest open level of a ladder of `levelCount` levels: one above
    /// the last level of the unbroken run 1, 2, … of passed levels, at most
    /// `levelCount`.
    public static func highestOpen(passed: Set<Int>, levelCount: Int) -> Int {
        var level = 1
        while level < levelCount && passed.contains(level) { level += 1 }
        return level
    }

    /// The levels passed after playing `results` (level, correct) in order,
    /// each counting only if its level was open when it was played.
    public static func passed(after results: [(level: Int, correct: Int)], passMark: Int,
                              startingWith passed: Set<Int> = []) -> Set<Int> {
        var passed = passed
        for r in results where isOpen(r.level, passed: passed) && passes(correct: r.correct, passMark: passMark) {
            passed.insert(r.level)
        }
        return passed
    }
}
