print("mailfs")
