/// The sign-in form: a parent's own Guardian id and password, which the console passes to the
/// broker and keeps only inside the session's connection.
enum SignInPage {
    static func body(token: String, problem: String?, notice: String?) -> String {
        var html = "<h1>Sign in</h1><p>Use your own Guardian id and password (the ones your family’s administrator gave you).</p>"
        if let problem { html += "<p class=\"problem\" role=\"alert\">\(HTML.escape(problem))</p>" }
        if let notice { html += "<p class=\"notice\" role=\"status\">\(HTML.escape(notice))</p>" }
        html += """
            <form method="post" action="/signin" class="signin">
            <input type="hidden" name="token" value="\(HTML.escape(token))">
            <label for="user">Guardian id</label><input id="user" name="user" type="text" autocomplete="username" required maxlength="64" autocapitalize="none" spellcheck="false">
            <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
            <button type="submit">Sign in</button></form>
            """
        return html
    }
}
