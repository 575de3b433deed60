/// The sign-in form (`signin` template): a parent's own Guardian id and password, which the console
/// passes to the broker and keeps only inside the session's connection.
struct SignInPage {
    let token: String
    let problem: String?
    let notice: String?
}
