import ArgumentParser

extension GuardianCommand {
    /// The `guardian` program: runs the subcommand `arguments` name (nil: the process's own), or exits
    /// with ArgumentParser's message and status. Called from an async function so that the async
    /// `AsyncParsableCommand.main` runs: top-level code would pick `ParsableCommand`'s, which refuses.
    public static func main(arguments: [String]?) async {
        await main(arguments)
    }
}
