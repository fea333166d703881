/// The grid path finder (issue 16, `../shared/seeds/003_*`): the racer is
/// shown how many cells a grid has and guesses its rows and columns (only
/// the true grid is accepted: 20 cells guessed as 5 × 4 when the grid is
/// 4 × 5 is wrong, and may be tried again), then steers a robot from (1,1)
/// to the goal with North/East/South/West moves or taps on a neighbouring
/// cell. A race is one round; everyone in a room gets the same grid and
/// goal.
///
/// The score is the seed's rank value × 1000, rounded: `steps × steering
/// milliseconds / cells`, lower first. The server holds the robot's true
/// position: a move off the grid, a tap on a cell that is not next to the
/// robot, or a move before the grid is guessed is refused and not counted.
///
/// The question is drawn from `SeededGenerator(seed:stream:)` with
/// `stream = 0`: rows, then columns, each uniform in 4…6, then the goal
/// uniform among the other `rows × columns − 1` cells.
public struct PathFinder: GameKind {
    public typealias Question = PathQuestion
    public typealias Prompt = PathPrompt
    public typealias Answer = PathAnswer
    public typealias Attempt = PathAttempt

    /// The sides a grid can have (the seed's "between 4 and 6").
    public static let sides = 4...6

    public init() {}

    public var identifier: String { "path_finder" }

    public var names: LocalizedName { LocalizedName(en: "Path Finder", zh: "寻路机器人") }

    /// One round per race, raced to the goal.
    public var modes: [GameMode] { [.normal] }

    public var normalQuestionCount: Int { 1 }

    public var answerInput: AnswerInput { .move }

    /// The seed ranks lower values first.
    public var boardOrder: BoardOrder { .lowerFirst }

    /// The score is the seed's rank value × 1000, rounded.
    public var scorePerRankValue: Int? { 1000 }

    public func question(seed: UInt64, index: Int, mode: GameMode) -> PathQuestion {
        var generator = SeededGenerator(seed: seed, stream: UInt64(index))
        let rows = generator.int(in: Self.sides)
        let columns = generator.int(in: Self.sides)
        // Cells numbered row by row from 0 = (1,1); the goal is any other.
        let goal = generator.int(in: 1...(rows * columns - 1))
        return PathQuestion(rows: rows, columns: columns, goal: GridCell(row: goal / columns + 1, column: goal % columns + 1))!
    }

    /// The fewest moves from (1,1) to the goal: the grid has no obstacles.
    public static func bestSteps(_ question: PathQuestion) -> Int {
        GridCell.start.distance(to: question.goal)
    }

    public func prompt(for question: PathQuestion) -> PathPrompt {
        prompt(for: question, attempt: PathAttempt())
    }

    public func prompt(for question: PathQuestion, attempt: PathAttempt) -> PathPrompt {
        switch attempt.stage {
        case .guess:
            .guess(cells: question.cells, tries: attempt.tries)
        case .steer:
            .steer(rows: question.rows, columns: question.columns, robot: attempt.robot, goal: question.goal,
                   steps: attempt.steps, bestSteps: Self.bestSteps(question), tries: attempt.tries)
        }
    }

    /// The one answer with a fixed right value: the grid.
    public func correctAnswer(to question: PathQuestion) -> PathAnswer {
        .guess(rows: question.rows, columns: question.columns)
    }

    public func attempt(for question: PathQuestion) -> PathAttempt { PathAttempt() }

    /// The rows and columns a guess may name: one digit each, as written
    /// on the pad (`answer(handwritten:)`). A wrong guess within them is a
    /// try; 0, −1 or 2⁶³−1 rows is no guess at all.
    public static let guessSides = 1...9

    /// Moves kept in a round's `route` (its replay); `steps` counts on.
    public static let routeLimit = 1000

    /// A typed guess of rows or columns outside `guessSides` is refused
    /// (`bad_answer`) before it counts as a try.
    public func refusal(of answer: PathAnswer, to question: PathQuestion, attempt: PathAttempt, drawn: Bool) -> RaceError? {
        guard case .guess(let rows, let columns) = answer,
              !(Self.guessSides.contains(rows) && Self.guessSides.contains(columns)) else { return nil }
        return .badAnswer("Rows and columns are whole numbers from 1 to 9, such as {\"rows\":4,\"columns\":5}.")
    }

    public func judge(_ answer: PathAnswer, to question: PathQuestion, attempt: inout PathAttempt,
                      after: RaceDuration) -> AnswerVerdict {
        switch (answer, attempt.stage) {
        case (.guess(let rows, let columns), .guess):
            guard rows == question.rows, columns == question.columns else {
                attempt.tries += 1
                return .tryAgain
            }
            attempt.stage = .steer
            attempt.gridShownAfter = after
            return .step
        case (.guess, .steer):
            return .refused(.illegalMove("The grid is already guessed; move the robot."))
        case (.move, .guess), (.tap, .guess):
            return .refused(.illegalMove("Guess the grid's rows and columns first."))
        case (.move(let direction), .steer):
            return move(direction, on: question, attempt: &attempt, after: after)
        case (.tap(let cell), .steer):
            guard let direction = attempt.robot.direction(to: cell) else {
                return .refused(.illegalMove("Tap a cell next to the robot."))
            }
            return move(direction, on: question, attempt: &attempt, after: after)
        }
    }

    private func move(_ direction: PathMove, on question: PathQuestion, attempt: inout PathAttempt,
                      after: RaceDuration) -> AnswerVerdict {
        let target = attempt.robot.moved(direction)
        guard question.contains(target) else { return .refused(.illegalMove("That move leaves the grid.")) }
        attempt.robot = target
        attempt.steps += 1
        if attempt.route.count < Self.routeLimit { attempt.route.append(PathStep(cell: target, after: after)) }
        guard target == question.goal else { return .step }
        attempt.goalReachedAfter = after
        return .graded(correct: true)
    }

    /// Only guesses of the grid are answers to review; moves steer.
    public func isReviewable(_ answer: PathAnswer) -> Bool {
        switch answer {
        case .guess: true
        case .move, .tap: false
        }
    }

    /// The guess may be written: two digits, rows then columns.
    public func handwriting(for question: PathQuestion, attempt: PathAttempt) -> AnswerInput? {
        attempt.stage == .guess ? .drawnNumber : nil
    }

    /// Two digits 1…9 written left to right: rows, then columns.
    public func answer(handwritten: HandwrittenAnswer) -> PathAnswer? {
        guard handwritten.digits.count == 2, handwritten.digits.allSatisfy((1...9).contains) else { return nil }
        return .guess(rows: handwritten.digits[0], columns: handwritten.digits[1])
    }

    /// The robot's distance to the goal while steering.
    public func remaining(in question: PathQuestion, attempt: PathAttempt) -> Int? {
        attempt.stage == .steer ? attempt.robot.distance(to: question.goal) : nil
    }

    /// The rank value × 1000 (docs/rules.md, "Path Finder").
    public func points(for question: PathQuestion, attempt: PathAttempt, time: RaceDuration) -> Int {
        Self.points(steps: attempt.steps, steering: time - (attempt.gridShownAfter ?? .zero), gridSize: question.cells)
    }

    /// `round(steps × steering ms / cells)`, the seed's rank value × 1000,
    /// capped at `Int32.max` (the stored score is an `integer`).
    public static func points(steps: Int, steering: RaceDuration, gridSize: Int) -> Int {
        let value = (Double(steps) * Double(max(steering.milliseconds, 0)) / Double(gridSize)).rounded()
        return value >= Double(Int32.max) ? Int(Int32.max) : Int(value)
    }

    /// Never asked: the race machine asks `points(for:attempt:time:)`.
    public func points(for question: PathQuestion, secondsSpent: Int) -> Int {
        points(for: question, attempt: PathAttempt(), time: .seconds(Int64(secondsSpent)))
    }

    public func detail(of question: PathQuestion, attempt: PathAttempt, sentAfter: RaceDuration,
                       endedAfter: RaceDuration?) -> ResultDetail? {
        round(of: question, attempt: attempt, sentAfter: sentAfter).detail
    }

    /// The racer's round, times from the race start (`detail`).
    public func round(of question: PathQuestion, attempt: PathAttempt, sentAfter: RaceDuration) -> PathRoundResult {
        PathRoundResult(
            rows: question.rows, columns: question.columns, goal: question.goal, steps: attempt.steps,
            bestSteps: Self.bestSteps(question), tries: attempt.tries,
            gridShownAfter: attempt.gridShownAfter.map { sentAfter + $0 },
            goalReachedAfter: attempt.goalReachedAfter.map { sentAfter + $0 },
            route: attempt.route.map { PathStep(cell: $0.cell, after: sentAfter + $0.after) }
        )
    }
}
