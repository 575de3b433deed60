/// Something that went wrong while doing what was asked (no reply, a file that cannot be read):
/// printed as `Error: …` with exit status 1, without the usage text a wrong argument gets.
struct CLIFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
