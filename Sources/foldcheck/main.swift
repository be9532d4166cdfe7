import Fold
print(try Folder(.search).fold(CommandLine.arguments.dropFirst().joined(separator: " ")))
