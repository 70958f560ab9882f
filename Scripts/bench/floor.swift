// The start-up floor: a static-stdlib Swift program that only prints a line.
print("floor")
