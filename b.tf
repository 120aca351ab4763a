b = 
