public import DecantCore
