import BlocksKit

BlocksCLI.main()
