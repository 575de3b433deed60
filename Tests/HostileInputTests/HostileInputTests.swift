// Hostile-input (fuzz) tests of every service: see the suite in this folder.
