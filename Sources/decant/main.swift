import Decant
print("decant")
