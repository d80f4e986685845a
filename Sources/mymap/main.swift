print("mymap")
