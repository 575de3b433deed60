/// One of a list to pick from: an `<option>` (the `choices` template) or a link (a day's recent days).
struct Choice {
    let value: String, label: String
    var selected = false
}
