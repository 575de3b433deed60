/// One `<option>` of a list to pick from (the `choices` template).
struct Choice {
    let value: String, label: String
    var selected = false
}
