/// A path-finder input, one of three wire forms:
/// `{"rows":4,"columns":5}` (a guess of the grid), `{"move":"north"}`, or
/// `{"to":{"row":2,"column":1}}` (a tap on a cell, which must be next to
/// the robot and counts like the matching move).
public enum PathAnswer: Sendable, Hashable, Codable, CustomStringConvertible {
    case guess(rows: Int, columns: Int)
    case move(PathMove)
    case tap(GridCell)

    private enum CodingKeys: String, CodingKey {
        case rows, columns, move, to
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let present = c.allKeys
        if present.count == 1, let move = try c.decodeIfPresent(PathMove.self, forKey: .move) {
            self = .move(move)
        } else if present.count == 1, let cell = try c.decodeIfPresent(GridCell.self, forKey: .to) {
            self = .tap(cell)
        } else if present.count == 2, let rows = try c.decodeIfPresent(Int.self, forKey: .rows),
                  let columns = try c.decodeIfPresent(Int.self, forKey: .columns) {
            self = .guess(rows: rows, columns: columns)
        } else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: c.codingPath,
                debugDescription: "an answer is {\"rows\":…,\"columns\":…}, {\"move\":\"north\"|\"east\"|\"south\"|\"west\"} or {\"to\":{\"row\":…,\"column\":…}}"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .guess(let rows, let columns):
            try c.encode(rows, forKey: .rows)
            try c.encode(columns, forKey: .columns)
        case .move(let move):
            try c.encode(move, forKey: .move)
        case .tap(let cell):
            try c.encode(cell, forKey: .to)
        }
    }

    public var description: String {
        switch self {
        case .guess(let rows, let columns): "\(rows)×\(columns)"
        case .move(let move): move.rawValue
        case .tap(let cell): "tap \(cell)"
        }
    }
}

/// The question as the racer sees it. Guessing: only the number of cells
/// (`{"stage":"guess","cells":20,"tries":0}`); steering: the grid, the
/// robot where it stands, the goal and the counts
/// (`{"stage":"steer","rows":4,"columns":5,"robot":{…},"goal":{…},"steps":0,"best_steps":5,"tries":1}`).
public enum PathPrompt: Sendable, Hashable, Codable {
    case guess(cells: Int, tries: Int)
    case steer(rows: Int, columns: Int, robot: GridCell, goal: GridCell, steps: Int, bestSteps: Int, tries: Int)

    private enum CodingKeys: String, CodingKey {
        case stage, cells, rows, columns, robot, goal, steps, bestSteps, tries
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(PathAttempt.Stage.self, forKey: .stage) {
        case .guess:
            self = .guess(cells: try c.decode(Int.self, forKey: .cells), tries: try c.decode(Int.self, forKey: .tries))
        case .steer:
            self = .steer(rows: try c.decode(Int.self, forKey: .rows), columns: try c.decode(Int.self, forKey: .columns),
                          robot: try c.decode(GridCell.self, forKey: .robot), goal: try c.decode(GridCell.self, forKey: .goal),
                          steps: try c.decode(Int.self, forKey: .steps), bestSteps: try c.decode(Int.self, forKey: .bestSteps),
                          tries: try c.decode(Int.self, forKey: .tries))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .guess(let cells, let tries):
            try c.encode(PathAttempt.Stage.guess, forKey: .stage)
            try c.encode(cells, forKey: .cells)
            try c.encode(tries, forKey: .tries)
        case .steer(let rows, let columns, let robot, let goal, let steps, let bestSteps, let tries):
            try c.encode(PathAttempt.Stage.steer, forKey: .stage)
            try c.encode(rows, forKey: .rows)
            try c.encode(columns, forKey: .columns)
            try c.encode(robot, forKey: .robot)
            try c.encode(goal, forKey: .goal)
            try c.encode(steps, forKey: .steps)
            try c.encode(bestSteps, forKey: .bestSteps)
            try c.encode(tries, forKey: .tries)
        }
    }
}
